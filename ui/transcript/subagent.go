package transcript

import (
	"fmt"
	"strings"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/internal/termtext"
	"github.com/keel-dev/keel/ui/common"
)

// child is a task call's subagent as its card shows it: live while it
// runs (its state and last call), a summary when it ends; expanded, every
// call it made and its answer.
type child struct {
	agent  string
	state  string
	calls  []string // one line per tool call it made
	rounds int
	tokens int
	ended  string // "completed · 2 rounds · 3 tool calls · $0.0010"; "" while it runs
}

// maxChildCalls bounds the calls a card keeps.
const maxChildCalls = 200

// SubagentStarted makes a task call's entry the card of its subagent.
func (t *Model) SubagentStarted(ev agent.SubagentStarted) {
	e := t.live.tools[ev.CallID]
	if e == nil {
		return
	}
	e.tool.child = &child{agent: ev.Agent, state: "starting"}
	t.changed(e)
}

// SubagentProgress shows a running subagent's event on its card.
func (t *Model) SubagentProgress(ev agent.SubagentEvent) {
	e := t.live.tools[ev.CallID]
	if e == nil || e.tool.child == nil {
		return
	}
	c := e.tool.child
	switch in := ev.Event.(type) {
	case agent.StateChanged:
		c.state = string(in.To)
	case agent.ToolStarted:
		c.state = "running " + in.Name
	case agent.ToolFinished:
		c.state = "ran " + in.Name
		if len(c.calls) < maxChildCalls {
			c.calls = append(c.calls, childCall(in))
		}
	case agent.UsageUpdated:
		c.rounds++
		c.tokens = in.Task.PromptTokens + in.Task.CompletionTokens
	default:
		return
	}
	t.changed(e)
}

// SubagentFinished puts a subagent's end on its card.
func (t *Model) SubagentFinished(ev agent.SubagentFinished) {
	e := t.live.tools[ev.CallID]
	if e == nil || e.tool.child == nil {
		return
	}
	s := ev.Summary
	parts := []string{string(ev.Reason), common.Plural(s.Turns, "round"), common.Plural(s.ToolCalls, "tool call"),
		common.Tokens(s.Usage.PromptTokens+s.Usage.CompletionTokens) + " tokens"}
	if ev.CostUSD != nil {
		parts = append(parts, common.Cost(ev.CostUSD))
	}
	e.tool.child.ended = strings.Join(parts, " · ")
	t.changed(e)
}

// childCall is one line for a call a subagent made.
func childCall(ev agent.ToolFinished) string {
	mark := "✓"
	switch {
	case ev.Denied:
		mark = "⊘"
	case ev.IsError:
		mark = "✗"
	}
	line := mark + " " + ev.Name
	if arg := common.KeyArgument(ev.Name, ev.Args); arg != "" {
		line += " " + arg
	}
	return line + " (" + termtext.Duration(ev.Duration) + ")"
}

// childLines are a subagent card's lines under its task call: its status
// (live, or how it ended), and when expanded every call it made.
func (r *renderer) childLines(t *toolCall, expanded bool, width int) []string {
	c := t.child
	status := fmt.Sprintf("subagent %s · %s", c.agent, c.state)
	if c.rounds > 0 {
		status += fmt.Sprintf(" · %s · %s tokens", common.Plural(c.rounds, "round"), common.Tokens(c.tokens))
	}
	if c.ended != "" {
		status = fmt.Sprintf("subagent %s · %s", c.agent, c.ended)
	}
	out := []string{r.st.Dim.Render(common.Fit(status, width-2))}
	switch {
	case expanded:
		for _, l := range c.calls {
			out = append(out, r.st.Dim.Render(common.Fit("  "+l, width-2)))
		}
	case len(c.calls) > 0 && c.ended == "":
		out = append(out, r.st.Dim.Render(common.Fit("  "+c.calls[len(c.calls)-1], width-2)))
	case len(c.calls) > 0:
		out = append(out, r.st.Dim.Render(common.Fit(fmt.Sprintf("  %s (ctrl+o expands)", common.Plural(len(c.calls), "call")), width-2)))
	}
	return out
}
