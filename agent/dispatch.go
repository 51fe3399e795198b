package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/discipline"
	"github.com/keel-dev/keel/tools"
)

// outcome is what became of one tool call.
type outcome struct {
	call       llm.ToolCall
	result     tools.Result
	output     string // as sent to the model, capped
	denied     bool
	decidedBy  string // datalog.DecidedBy… ("policy", "rule: RULE", "session: PATTERN", "user:once", ...)
	decision   string // "allow", "deny"
	target     string // the resolved path the permission check approved (tools.Decision.Target)
	writes     bool   // approved beyond keel's read-only analysis: a command gets a writable sandbox (tools.WithWrites)
	verified   bool   // a command on the verification list that succeeded
	denial     string // why the call was refused, for the task's denials
	duration   time.Duration
	started    time.Time
	ran        bool // the tool's Run was called
	cancelled  bool
	unknown    bool   // no such tool, or broken arguments
	skip       string // why the call is answered without running ("" runs it)
	harnessErr error
	progress   *progressLog // what a progressive tool reported
	raw        []byte       // call.Arguments as bytes, made once for the permission check and the tool (args)
	shortAt    string       // the fate shortArgs last shortened the arguments for ("" none yet)
	short      string       // the arguments as shortened for shortAt, when isShort
	isShort    bool
}

// args is the call's arguments as the permission check and the tool take
// them, made once for both and dropped when the tool has run. Arguments
// past bigArgs are a read-only view of the string, not a copy: a 50 MB
// write_file held its arguments twice while it ran (issue 26). Neither
// the policy nor a tool writes into its arguments (tools.Tool's
// contract), so the string's bytes never change.
func (o *outcome) args() json.RawMessage {
	if o.raw == nil {
		if a := o.call.Arguments; len(a) > bigArgs {
			o.raw = unsafe.Slice(unsafe.StringData(a), len(a))
		} else {
			o.raw = []byte(a)
		}
	}
	return o.raw
}

// skipOverBudget answers the calls of a round past max_tool_calls.
const skipOverBudget = "the task reached max_tool_calls before this call: it was not run"

// runTools runs a round's calls: consecutive read-only calls in parallel,
// the rest in order. Every call gets a result in the history, in call
// order, even when cancelled. A response the provider's content filter
// cut runs none of its calls: they may be incomplete.
func (t *task) runTools(ctx context.Context, calls []llm.ToolCall, finishReason string) []outcome {
	outs := make([]outcome, len(calls))
	t.s.opts.Recorder.beforeTools(t.s.opts.Workdir, t.seq) // the session and its task are on disk before anything runs
	budget := t.s.opts.Limits.MaxToolCalls - t.limits.toolCalls
	for i, c := range calls {
		outs[i].call = c
		switch {
		case finishReason == "content_filter":
			outs[i].skip = "the provider's content filter cut this response, so this call may be incomplete"
		case t.s.opts.Limits.MaxToolCalls > 0 && i >= budget:
			outs[i].skip = skipOverBudget
		}
	}
	for i := 0; i < len(calls); {
		j := i + 1
		if t.s.readOnly(calls[i].Name) {
			for j < len(calls) && t.s.readOnly(calls[j].Name) {
				j++
			}
		}
		t.backFromPlanning()
		t.runBatch(ctx, outs[i:j])
		if j < len(calls) && outs[i].skip == "" {
			if why := t.midRoundHalt(outs[:j]); why != "" {
				skipRest(outs[j:], why)
			}
		}
		i = j
	}
	t.shortenBigCalls(outs)
	t.s.appendHistory(toolMessages(outs)...)
	for _, o := range outs {
		if o.denial != "" {
			t.Denials = append(t.Denials, Denial{Tool: o.call.Name, CallID: o.call.ID, Args: o.call.Arguments, Reason: o.denial})
		}
	}
	kids := t.s.takeChildTotals() // subagents' tokens count against the task's budget; their denials are the task's
	t.limits.usage = t.limits.usage.Add(kids.usage)
	t.Denials = append(t.Denials, kids.denials...)
	made := len(calls) - t.countSkipped(outs)
	t.limits.toolCalls += made
	t.limits.reflectCalls += countCalls(calls, ReflectToolName)
	t.s.mu.Lock()
	t.s.toolTotal += made
	t.s.mu.Unlock()
	if kids.usage != (llm.Usage{}) {
		t.reportChildUsage()
	}
	return outs
}

// countSkipped counts the calls of a round max_tool_calls left unrun, adds
// them to the task's, and returns them: they are not tool calls made, and
// the stop message says how many there were.
func (t *task) countSkipped(outs []outcome) int {
	n := 0
	for _, o := range outs {
		if o.skip == skipOverBudget {
			n++
		}
	}
	t.limits.skipped += n
	return n
}

// runBatch runs calls concurrently when there are several (they are all
// read-only then), else inline.
func (t *task) runBatch(ctx context.Context, batch []outcome) {
	if len(batch) == 1 {
		t.runOne(ctx, &batch[0])
		return
	}
	var wg sync.WaitGroup
	for i := range batch {
		wg.Add(1)
		go func(o *outcome) {
			defer wg.Done()
			t.runOne(ctx, o)
		}(&batch[i])
	}
	wg.Wait()
}

// runOne checks, asks permission for, runs and reports one call.
func (t *task) runOne(ctx context.Context, o *outcome) {
	s := t.s
	o.started = s.now()
	s.out.send(ToolStarted{CallID: o.call.ID, Name: o.call.Name, Args: o.shownArgs(aboutToRun)})
	defer func() {
		o.duration = s.now().Sub(o.started)
		s.out.send(ToolFinished{CallID: o.call.ID, Name: o.call.Name, Args: o.shownArgs(o.fate()), Output: o.output,
			IsError: o.result.IsError, Denied: o.denied, DenyReason: denyReason(o), Decision: o.decision, DecidedBy: o.decidedBy,
			Diff: o.result.Diff, Changes: o.result.Changes, ExitCode: o.result.ExitCode, Duration: o.duration,
			Images: o.result.Images, Progress: o.progress.finish()})
	}()
	if ctx.Err() != nil || t.plan.cancelAsked.Load() {
		o.setCancelled()
		return
	}
	if o.skip != "" {
		o.result = tools.Result{Output: "not run: " + o.skip, IsError: true}
		o.output = o.result.Output
		return
	}
	tool, msg := s.lookup(o.call)
	if tool == nil {
		o.unknown = true
		o.result = tools.Result{Output: msg, IsError: true}
		o.output = msg
		return
	}
	verdict, run := t.preToolHooks(ctx, o)
	if !run {
		return
	}
	if ctx.Err() != nil {
		o.setCancelled()
		return
	}
	if !t.confirmPlan(ctx, o) || !t.permit(ctx, o, verdict) {
		return
	}
	o.ran = true
	o.started = s.now() // the call's duration is its run's, not the wait for permission
	if tool.Class() != tools.ReadOnly {
		s.opts.Recorder.intent(s.currentRound(), o.call, o.shownArgs(aboutToRun), o.started) // shown even if keel dies while it runs
	}
	ctx = withCall(withCallID(tools.WithTarget(ctx, o.target), o.call.ID), t, o)
	if o.writes {
		ctx = tools.WithWrites(ctx)
	}
	res, err := s.runTool(ctx, tool, o)
	o.raw = nil
	switch {
	case ctx.Err() != nil:
		o.result = res
		o.setCancelled()
	case err != nil:
		o.harnessErr = err
		o.result = tools.Result{Output: "keel failed to run this tool: " + err.Error(), IsError: true}
	default:
		o.result = res
	}
	o.output = tools.CapOutput(o.result.Output, s.opts.Limits.ToolOutputCap)
	o.verified = s.verifies(o)
	if !o.cancelled {
		t.postToolHooks(ctx, o)
	}
}

func (o *outcome) setCancelled() {
	o.cancelled = true
	o.result.IsError = true
	o.result.Output = "cancelled: the user stopped this task before the tool call finished"
	o.output = o.result.Output
}

func denyReason(o *outcome) string {
	if !o.denied {
		return ""
	}
	return o.output
}

// lookup finds the tool a call names and checks its arguments are a JSON
// object. On failure it returns the message the model gets.
func (s *Session) lookup(c llm.ToolCall) (tools.Tool, string) {
	tool, ok := tools.Find(s.opts.Tools, c.Name) // a tools.Group's member too
	if !ok {
		return nil, fmt.Sprintf("error: there is no tool named %q. Available tools: %s.", c.Name, strings.Join(s.toolNames(), ", "))
	}
	args := strings.TrimSpace(c.Arguments)
	if args == "" {
		return tool, ""
	}
	if args[0] == '{' && json.Valid([]byte(args)) {
		return tool, "" // an object: the check without decoding it (the tool decodes it next)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(args), &obj); err != nil {
		return nil, fmt.Sprintf("error: the arguments for %s are not a valid JSON object (%v). Send one JSON object that matches the tool's schema, e.g. %s", c.Name, err, exampleArgs(tool))
	}
	return tool, ""
}

func (s *Session) toolNames() []string {
	ts := tools.Expand(s.opts.Tools)
	names := make([]string, 0, len(ts))
	for _, t := range ts {
		names = append(names, t.Name())
	}
	sort.Strings(names)
	return names
}

func (s *Session) readOnly(name string) bool {
	t, ok := tools.Find(s.opts.Tools, name)
	return ok && t.Class() == tools.ReadOnly
}

// toolDefs describes the tools to the model. The set is fixed for a
// session, so it is built once (in New), unless it holds a tools.Group
// (MCP servers' tools): then each request offers the members it has now.
func (s *Session) toolDefs() []llm.ToolDef {
	if tools.HasGroup(s.opts.Tools) {
		return buildToolDefs(s.opts.Tools)
	}
	return s.defs
}

// buildToolDefs describes tools to the model, each group's members in its
// place.
func buildToolDefs(ts []tools.Tool) []llm.ToolDef {
	ts = tools.Expand(ts)
	defs := make([]llm.ToolDef, 0, len(ts))
	for _, t := range ts {
		defs = append(defs, llm.ToolDef{Name: t.Name(), Description: t.Description(), Parameters: t.Schema()})
	}
	return defs
}

// exampleArgs lists a tool's parameter names as a JSON skeleton.
func exampleArgs(t tools.Tool) string {
	var schema struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	_ = json.Unmarshal(t.Schema(), &schema)
	keys := make([]string, 0, len(schema.Properties))
	for k := range schema.Properties {
		keys = append(keys, fmt.Sprintf("%q: ...", k))
	}
	sort.Strings(keys)
	return "{" + strings.Join(keys, ", ") + "}"
}

// toolMessages turns outcomes into tool-result messages in call order.
func toolMessages(outs []outcome) []llm.Message {
	msgs := make([]llm.Message, len(outs))
	for i, o := range outs {
		msgs[i] = llm.Message{Role: llm.RoleTool, ToolCallID: o.call.ID, Name: o.call.Name, Content: o.output}
		if !o.cancelled && !o.denied {
			msgs[i].Images = llmImages(o.result.Images)
		}
	}
	return msgs
}

// verifies reports a command on the verification list that succeeded:
// decided once, when it ran, for discipline and the datalog alike.
func (s *Session) verifies(o *outcome) bool {
	if o.call.Name != tools.NameRunCommand || o.result.IsError {
		return false
	}
	return discipline.IsVerifying(commandOf(o.call.Arguments), s.live.policy().VerifyPatterns())
}
