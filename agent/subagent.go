package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/keel-dev/keel/agent/agentdef"
	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/tools"
)

// TaskToolName is the tool that starts a subagent: a child session with
// its own context, discipline and limits, whose final answer is the
// call's result.
const TaskToolName = "task"

// Subagents configures the task tool. MaxParallel 0 offers no task tool.
type Subagents struct {
	Defs        []agentdef.Def // named agents (.keel/agents/NAME.md)
	MaxParallel int            // children running at once, across the session
	Limits      Limits         // a child's MaxTurns and MaxToolCalls (the rest are the parent's)
	Tools       []string       // a child's tools when neither the call nor its agent names them
	// Prompt builds a child's system prompt from its instructions (the
	// agent file's body, or keel's default) and its tools; nil: the
	// instructions alone.
	Prompt func(instructions string, tools []string) string
	// Model gives the provider for an agent file's model; nil, or a
	// model of "", uses the parent's.
	Model func(model string) (ChildModel, error)
}

// ChildModel is the model a named agent asked for.
type ChildModel struct {
	Provider      Provider
	ProviderName  string
	Model         string
	ContextWindow int
	Prices        *Prices
}

// TaskArgs are the task tool's parameters.
type TaskArgs struct {
	Description string   `json:"description" description:"A short title of the subtask (3 to 6 words), shown to the user."`
	Prompt      string   `json:"prompt" description:"The subtask in full. The subagent sees nothing of this conversation: say what to do, where, and what to report back."`
	Agent       string   `json:"agent,omitempty" description:"The named agent to run it (from the list in this tool's description); default: a general-purpose one."`
	Tools       []string `json:"tools,omitempty" description:"Names of your tools the subagent may use (not task). Default: the agent's, else read-only ones. Calls with side effects still need permission."`
}

const taskToolDesc = `Start a subagent for a self-contained subtask: searching or reading widely, reviewing, or work that can run beside other work. It runs with its own fresh context and limits, sees only your prompt, and returns its final answer as this call's result (you see nothing else it did). Several task calls in one answer run at once. Use it to keep large explorations out of your own context; do small lookups yourself.`

// SubagentDefaultPrompt is a child's instructions when no agent file
// gives them.
const SubagentDefaultPrompt = `You are a subagent: another agent gave you one subtask. Work on it with your tools, without asking the user anything, and stop when it is done. Your final answer is all the other agent will see: make it complete and self-contained (the facts found, file paths and line numbers, what you changed, what failed), with no preamble.`

// SubagentStarted reports a task call starting its child session.
type SubagentStarted struct {
	CallID      string
	Agent       string // the named agent, or "general"
	Description string
	Prompt      string
	Tools       []string
	SessionID   string // the child's datalog session
}

// SubagentEvent carries an event of a running child (deltas left out):
// its state, calls, answers and questions, for live status.
type SubagentEvent struct {
	CallID string
	Agent  string
	Event  Event
}

// SubagentFinished reports a child's end; its usage and cost are already
// added to the parent's.
type SubagentFinished struct {
	CallID    string
	Agent     string
	Reason    StopReason
	Message   string
	Result    string
	SessionID string
	Summary   TaskSummary
	CostUSD   *float64 // the child's own cost; nil without prices
}

func (SubagentStarted) event()  {}
func (SubagentEvent) event()    {}
func (SubagentFinished) event() {}

// taskTool is the task tool bound to s.
func (s *Session) taskTool() tools.Tool {
	return tools.NewTool(TaskToolName, s.taskDescription(), tools.ReadOnly, nil, func(ctx context.Context, a TaskArgs) (tools.Result, error) {
		return s.runChild(ctx, a), nil
	})
}

// taskDescription lists the named agents after the tool's description.
func (s *Session) taskDescription() string {
	defs := s.opts.Subagents.Defs
	if len(defs) == 0 {
		return taskToolDesc
	}
	var b strings.Builder
	b.WriteString(taskToolDesc + "\n\nNamed agents (pass the name as agent):")
	for _, d := range defs {
		fmt.Fprintf(&b, "\n- %s: %s", d.Name, d.Description)
	}
	return b.String()
}

// childTools resolves which of the parent's tools a child gets: the
// call's list, else its agent's, else the default. The task tool and the
// session's own tools are never lent.
func (s *Session) childTools(a TaskArgs, def *agentdef.Def) ([]tools.Tool, []string, string) {
	names := s.opts.Subagents.Tools
	switch {
	case len(a.Tools) > 0:
		names = a.Tools
	case def != nil && len(def.Tools) > 0:
		names = def.Tools
	}
	var out []tools.Tool
	var got []string
	for _, n := range names {
		t, ok := tools.Find(s.opts.Tools, n)
		if !ok || n == TaskToolName || s.ownTool(n) {
			return nil, nil, fmt.Sprintf("the subagent cannot have the tool %q; it may have any of: %s", n, strings.Join(s.lendable(), ", "))
		}
		if !slices.Contains(got, n) {
			out, got = append(out, t), append(got, n)
		}
	}
	return out, got, ""
}

// lendable are the tools a child may be given.
func (s *Session) lendable() []string {
	var out []string
	for _, n := range s.toolNames() {
		if n != TaskToolName && !s.ownTool(n) {
			out = append(out, n)
		}
	}
	return out
}

// findDef is the named agent, or nil for the general one.
func (s *Session) findDef(name string) (*agentdef.Def, string) {
	name = strings.TrimSpace(name)
	if name == "" || name == "general" || name == "general-purpose" {
		return nil, ""
	}
	for i, d := range s.opts.Subagents.Defs {
		if d.Name == name {
			return &s.opts.Subagents.Defs[i], ""
		}
	}
	names := []string{"general"}
	for _, d := range s.opts.Subagents.Defs {
		names = append(names, d.Name)
	}
	return nil, fmt.Sprintf("there is no agent named %q; the agents are: %s", name, strings.Join(names, ", "))
}

// childTotals is what finished children added, for the parent's task to
// take into its own figures (usage against its budget, denials).
type childTotals struct {
	usage   llm.Usage
	denials []Denial
}

// takeChildTotals hands the running task what its children added since
// the last call.
func (s *Session) takeChildTotals() childTotals {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.children
	s.children = childTotals{}
	return c
}

// addChild adds a finished child's figures to the session's totals.
func (s *Session) addChild(sum TaskSummary, cost float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.usage = s.usage.Add(sum.Usage)
	s.cost += cost
	s.children.usage = s.children.usage.Add(sum.Usage)
	s.children.denials = append(s.children.denials, sum.Denials...)
}

// childResult is what the parent's model reads: the child's answer, and
// how it ended when it did not complete.
func childResult(name string, st TaskStopped) tools.Result {
	head := fmt.Sprintf("[subagent %s: %s after %s, %s]", name, st.Reason, count(st.Summary.Turns, "round"), count(st.Summary.ToolCalls, "tool call"))
	if st.Reason != StopCompleted {
		head = fmt.Sprintf("[subagent %s stopped: %s (%s); its last answer follows]", name, st.Reason, st.Message)
	}
	answer := strings.TrimSpace(st.Result)
	if answer == "" {
		answer = "(no answer)"
	}
	return tools.Result{Output: head + "\n\n" + answer, IsError: st.Reason != StopCompleted}
}

// reportChildUsage reports the totals once the round's subagents have
// added theirs: without it a task cancelled after its children showed
// their tokens and cost nowhere live (no parent round follows to carry
// them).
func (t *task) reportChildUsage() {
	total, cost := t.s.addUsage(llm.Usage{})
	t.s.out.send(UsageUpdated{Task: t.limits.usage, Session: total, ContextTokens: t.compaction.lastPrompt,
		ContextWindow: t.s.opts.ContextWindow, CostUSD: cost, ToolCalls: t.limits.toolCalls, NextCheckpointIn: t.nextCheckpointIn()})
}
