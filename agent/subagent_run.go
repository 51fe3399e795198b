package agent

import (
	"context"

	"github.com/keel-dev/keel/agent/agentdef"
	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/tools"
)

// callKey carries the running call's id to the task tool, which names its
// child's session and events by it.
type callKey struct{}

func withCallID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, callKey{}, id)
}

func callIDOf(ctx context.Context) string {
	id, _ := ctx.Value(callKey{}).(string)
	return id
}

// runChild runs one task call: a child session on the subtask, at most
// MaxParallel at once, its events forwarded, its figures added to the
// parent's. Cancelling ctx (the parent's task) cancels the child.
func (s *Session) runChild(ctx context.Context, a TaskArgs) tools.Result {
	def, msg := s.findDef(a.Agent)
	if msg != "" {
		return tools.ErrResult("%s", msg)
	}
	if a.Prompt == "" {
		return tools.ErrResult("the task call needs a prompt: the subtask in full")
	}
	ts, names, msg := s.childTools(a, def)
	if msg != "" {
		return tools.ErrResult("%s", msg)
	}
	name := "general"
	if def != nil {
		name = def.Name
	}
	opts, err := s.childOptions(def, name, ts)
	if err != nil {
		return tools.ErrResult("the subagent %s cannot start: %v", name, err)
	}
	select { // the cap on children running at once
	case s.childSlots <- struct{}{}:
		defer func() { <-s.childSlots }()
	case <-ctx.Done():
		return tools.ErrResult("cancelled before the subagent started")
	}
	callID := callIDOf(ctx)
	opts.Recorder = s.opts.Recorder.child(datalog.Session{ParentID: s.ID(), ParentCallID: callID, Agent: name,
		ProjectRoot: s.opts.Project, Cwd: s.opts.Workdir, Provider: opts.ProviderName, Model: opts.Model, Started: s.now()})
	child := New(opts)
	defer child.Close()
	s.out.send(SubagentStarted{CallID: callID, Agent: name, Description: a.Description, Prompt: a.Prompt, Tools: names, SessionID: child.ID()})
	if err := child.Submit(ctx, a.Prompt); err != nil {
		return tools.ErrResult("the subagent %s cannot start: %v", name, err)
	}
	st := s.forwardChild(callID, name, child)
	var cost float64
	if st.Summary.CostUSD != nil {
		cost = *st.Summary.CostUSD
	}
	s.addChild(st.Summary, cost)
	s.out.send(SubagentFinished{CallID: callID, Agent: name, Reason: st.Reason, Message: st.Message, Result: st.Result,
		SessionID: child.ID(), Summary: st.Summary, CostUSD: st.Summary.CostUSD})
	return childResult(name, st)
}

// forwardChild passes a child's events on, deltas left out, until its
// task stops.
func (s *Session) forwardChild(callID, name string, child *Session) TaskStopped {
	for ev := range child.Events() {
		switch e := ev.(type) {
		case TextDelta, ReasoningDelta, ToolCallStreaming:
			continue
		case TaskStopped:
			return e
		}
		s.out.send(SubagentEvent{CallID: callID, Agent: name, Event: ev})
	}
	return TaskStopped{Reason: StopCancelled, Message: "the subagent's session closed"}
}

// childOptions are a child's: the parent's provider (or the agent file's
// model), the lent tools, the parent's permissions asked through a gate
// that names the child, the parent's discipline and hooks, the subagent
// limits, its own prompt.
func (s *Session) childOptions(def *agentdef.Def, name string, ts []tools.Tool) (Options, error) {
	p, sub := s.opts, s.opts.Subagents
	o := Options{
		Provider: s.provider(), ProviderName: p.ProviderName, Model: p.Model, ContextWindow: p.ContextWindow,
		MaxOutputTokens: p.MaxOutputTokens, Prices: p.Prices,
		Tools: ts, Permissions: p.Permissions, Gate: childGate{gate: p.Gate, agent: name}, RecordAsker: p.RecordAsker, Yolo: p.Yolo,
		Hooks: p.Hooks, AgentName: name, Discipline: s.live.policy(), StructuredReflection: p.StructuredReflection,
		Workdir: p.Workdir, Project: p.Project, MaxDuration: p.MaxDuration, CaptureBodies: p.CaptureBodies,
		Now: p.Now, OnInternalError: p.OnInternalError, AcceptsImages: p.AcceptsImages,
	}
	o.Limits = p.Limits
	o.Limits.MaxTurns, o.Limits.MaxToolCalls = sub.Limits.MaxTurns, sub.Limits.MaxToolCalls
	instructions := SubagentDefaultPrompt
	if def != nil {
		instructions = def.Prompt
		if def.Model != "" && sub.Model != nil {
			m, err := sub.Model(def.Model)
			if err != nil {
				return o, err
			}
			o.Provider, o.ProviderName, o.Model, o.ContextWindow, o.Prices = m.Provider, m.ProviderName, m.Model, m.ContextWindow, m.Prices
		}
	}
	var names []string
	for _, t := range tools.Expand(ts) {
		names = append(names, t.Name())
	}
	o.SystemPrompt = instructions
	if sub.Prompt != nil {
		o.SystemPrompt = sub.Prompt(instructions, names)
	}
	return o, nil
}

// childGate asks the parent's gate, the question labelled with the
// child's name.
type childGate struct {
	gate  Gate
	agent string
}

// Ask forwards req with Agent set.
func (g childGate) Ask(ctx context.Context, req PermissionRequest) (PermissionReply, error) {
	req.Agent = g.agent
	return g.gate.Ask(ctx, req)
}
