package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/keel-dev/keel/agent/hooks"
)

// HookRunner runs the user's hooks (*hooks.Runner); nil runs none.
type HookRunner interface {
	Has(e hooks.Event) bool
	Run(ctx context.Context, in hooks.Input) hooks.Outcome
}

// HookRan reports one hook command's run: every run is shown and stored.
type HookRan struct {
	Event    hooks.Event
	Matcher  string
	Command  string
	Tool     string // the tool call's, for tool events
	CallID   string
	Agent    string // the subagent whose hook it was ("" for the session's own)
	ExitCode int    // -1 when it did not exit by itself
	Duration time.Duration
	TimedOut bool
	Decision string // hooks.Decision*: "", "block", "allow", "ask", "error"
	Reason   string // stderr of a block or an error, the reply's reason
}

func (HookRan) event() {}

// runHooks runs an event's hooks, shows and records every run, and
// returns what they decided together.
func (s *Session) runHooks(ctx context.Context, in hooks.Input) hooks.Outcome {
	if !s.hooksFor(in.HookEventName) {
		return hooks.Outcome{}
	}
	in.SessionID, in.Cwd, in.AgentName = s.ID(), s.opts.Workdir, s.opts.AgentName
	in.PermissionMode = "default"
	if s.opts.Yolo {
		in.PermissionMode = "bypassPermissions"
	}
	out := s.opts.Hooks.Run(ctx, in)
	for _, r := range out.Results {
		ev := HookRan{Event: r.Hook.Event, Matcher: r.Hook.Matcher, Command: r.Hook.Command, Tool: in.ToolName, CallID: in.ToolUseID,
			Agent: s.opts.AgentName, ExitCode: r.ExitCode, Duration: r.Duration, TimedOut: r.TimedOut, Decision: r.Decision(), Reason: r.Reason()}
		s.opts.Recorder.hookRan(s.currentRound(), ev)
		s.out.send(ev)
	}
	return out
}

// hooksFor reports whether any hook listens to event.
func (s *Session) hooksFor(event hooks.Event) bool {
	return s.opts.Hooks != nil && s.opts.Hooks.Has(event)
}

// preToolHooks runs PreToolUse for a call. A block denies the call (the
// model gets the hook's reason); otherwise it returns the verdict the
// permission check takes into account (allow: do not ask; ask: ask even
// if a rule allows).
func (t *task) preToolHooks(ctx context.Context, o *outcome) (verdict string, run bool) {
	if !t.s.hooksFor(hooks.PreToolUse) {
		return "", true // nothing listens: the call's input is not copied for no one
	}
	out := t.s.runHooks(ctx, hooks.Input{HookEventName: hooks.PreToolUse, ToolName: o.call.Name,
		ToolInput: rawArgs(o.call.Arguments), ToolUseID: o.call.ID})
	d, why := out.Permission()
	if d == hooks.DecisionBlock {
		if why == "" {
			why = "no reason given"
		}
		t.deny(o, "hook", "a PreToolUse hook blocked this call: "+why)
		return d, false
	}
	return d, true
}

// postToolHooks runs PostToolUse for a call that ran; a block's reason
// and any added context reach the model after the call's output.
func (t *task) postToolHooks(ctx context.Context, o *outcome) {
	if !t.s.hooksFor(hooks.PostToolUse) {
		return
	}
	out := t.s.runHooks(ctx, hooks.Input{HookEventName: hooks.PostToolUse, ToolName: o.call.Name, ToolInput: rawArgs(o.call.Arguments),
		ToolUseID: o.call.ID, ToolResponse: &hooks.ToolResponse{Output: o.result.Output, IsError: o.result.IsError, ExitCode: o.result.ExitCode}})
	if blocked, why := out.Blocked(); blocked && why != "" {
		o.output += "\n\n[PostToolUse hook] " + why
	}
	if c := out.Context(); c != "" {
		o.output += "\n\n[PostToolUse hook] " + c
	}
}

// promptHooks runs SessionStart (once per session) and UserPromptSubmit,
// and returns the prompt as it goes to the model (with what the hooks
// added), or a stop when a hook blocked it.
func (t *task) promptHooks(ctx context.Context) (string, *stop) {
	s, prompt := t.s, t.prompt
	var added []string
	if s.startHooks.CompareAndSwap(false, true) {
		source := "startup"
		if len(s.opts.History) > 0 {
			source = "resume"
		}
		out := s.runHooks(ctx, hooks.Input{HookEventName: hooks.SessionStart, Source: source})
		added = append(added, out.Context())
	}
	if s.opts.AgentName == "" {
		out := s.runHooks(ctx, hooks.Input{HookEventName: hooks.UserPromptSubmit, Prompt: prompt})
		if blocked, why := out.Blocked(); blocked {
			return "", &stop{reason: StopHookBlocked, message: "a UserPromptSubmit hook blocked the prompt: " + orNoReason(why)}
		}
		if stops, why := out.Stops(); stops {
			return "", &stop{reason: StopHookBlocked, message: "a UserPromptSubmit hook stopped the task: " + orNoReason(why)}
		}
		added = append(added, out.Context())
	}
	for _, a := range added {
		if a != "" {
			prompt += "\n\n" + a
		}
	}
	return prompt, nil
}

// stopHooks runs Stop (SubagentStop for a subagent) when the model is
// about to end the task; a block sends it back to work with the reason.
func (t *task) stopHooks(ctx context.Context) (again bool) {
	ev := hooks.Stop
	if t.s.opts.AgentName != "" {
		ev = hooks.SubagentStop
	}
	active := t.stopHookActive
	out := t.s.runHooks(ctx, hooks.Input{HookEventName: ev, StopHookActive: &active})
	blocked, why := out.Blocked()
	if !blocked || ctx.Err() != nil {
		return false
	}
	if t.stopIdle.block(t.limits.toolCalls) > maxIdleStopBlocks {
		t.s.out.send(Notice{Text: fmt.Sprintf("the %s hooks sent the model back %d times in a row and it made no tool call in between: keel let the task end", ev, maxIdleStopBlocks)})
		return false
	}
	t.stopHookActive = true
	t.checkpoints.pending = append(t.checkpoints.pending, "A "+string(ev)+" hook did not let the task end yet: "+orNoReason(why))
	return true
}

// notifyHooks runs Notification while keel waits for the user; it runs
// beside the question, which never waits for it.
func (s *Session) notifyHooks(ctx context.Context, message string) {
	if s.opts.Hooks == nil || !s.opts.Hooks.Has(hooks.Notification) {
		return
	}
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		s.runHooks(ctx, hooks.Input{HookEventName: hooks.Notification, Message: message})
	}()
}

// End runs the SessionEnd hooks, once, and returns their runs (also sent
// as events): headless prints them before its result, as the TUI's last
// lines. Close calls it when nobody did.
func (s *Session) End(ctx context.Context, reason string) []HookRan {
	if !s.endHooks.CompareAndSwap(false, true) || s.opts.Hooks == nil || !s.opts.Hooks.Has(hooks.SessionEnd) || s.opts.AgentName != "" {
		return nil
	}
	out := s.runHooks(ctx, hooks.Input{HookEventName: hooks.SessionEnd, Reason: reason})
	runs := make([]HookRan, 0, len(out.Results))
	for _, r := range out.Results {
		runs = append(runs, HookRan{Event: r.Hook.Event, Matcher: r.Hook.Matcher, Command: r.Hook.Command, ExitCode: r.ExitCode,
			Duration: r.Duration, TimedOut: r.TimedOut, Decision: r.Decision(), Reason: r.Reason()})
	}
	return runs
}

// maxIdleStopBlocks is how many times in a row Stop hooks may send the
// model back while it makes no tool call: a hook that never lets the task
// end (one that ignores stop_hook_active) would otherwise spend rounds up
// to max_turns on the same answer.
const maxIdleStopBlocks = 3

// stopIdle counts Stop blocks with no tool call between them.
type stopIdle struct {
	blocks    int
	toolCalls int // the task's tool calls at the last block
}

// block counts a Stop block at the task's toolCalls and returns how many
// came in a row without a tool call between.
func (s *stopIdle) block(toolCalls int) int {
	if s.blocks == 0 || toolCalls != s.toolCalls {
		s.blocks = 0
	}
	s.blocks++
	s.toolCalls = toolCalls
	return s.blocks
}

func orNoReason(why string) string {
	if strings.TrimSpace(why) == "" {
		return "no reason given"
	}
	return why
}

// rawArgs is a call's arguments for a hook's tool_input: the object, or
// the text as a JSON string when the model's JSON is broken.
func rawArgs(args string) json.RawMessage {
	if json.Valid([]byte(args)) && strings.HasPrefix(strings.TrimSpace(args), "{") {
		return json.RawMessage(args)
	}
	b, _ := json.Marshal(args)
	return b
}
