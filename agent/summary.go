package agent

import (
	"github.com/keel-dev/keel/discipline"
	"github.com/keel-dev/keel/tools"
)

// roundSummary describes a finished round to discipline.
func (t *task) roundSummary(outs []outcome, endedTurn bool) discipline.RoundSummary {
	sum := discipline.RoundSummary{
		Calls:         make([]discipline.ToolCall, 0, len(outs)),
		EndedTurn:     endedTurn,
		Plan:          planView(t.s.Plan()),
		Compacted:     t.compacted,
		ToolCalls:     t.toolCalls,
		ContextUsed:   t.lastPrompt,
		ContextWindow: t.s.opts.ContextWindow,
	}
	t.compacted = false
	for _, o := range outs {
		sum.Calls = append(sum.Calls, callSummary(o))
	}
	return sum
}

// callSummary is one call as discipline sees it. A command that prints a
// file (cat, head, sed -n ...) counts as a read of that file's region.
func callSummary(o outcome) discipline.ToolCall {
	c := discipline.ToolCall{
		Name:       o.call.Name,
		Args:       discipline.NormalizeArgs(o.call.Arguments),
		ResultHash: discipline.Hash(o.output),
		IsError:    o.result.IsError,
	}
	if o.result.IsError {
		c.ErrorLine = o.output
	}
	for _, r := range o.result.Reads {
		c.Reads = append(c.Reads, discipline.Read{Path: r.Path, Version: r.Version, From: r.From, To: r.To, Total: r.Total})
	}
	for _, ch := range o.result.Changes {
		c.Changed = append(c.Changed, ch.Path)
	}
	if o.result.ExitCode != nil {
		c.ExitCode = *o.result.ExitCode
	}
	if o.call.Name == tools.NameRunCommand {
		c.Command = commandOf(o.call.Arguments)
	}
	return c
}

// planView is the part of the plan discipline needs.
func planView(p *Plan) discipline.PlanView {
	if p == nil {
		return discipline.PlanView{}
	}
	v := discipline.PlanView{Goal: p.Goal, Steps: make([]discipline.PlanStep, len(p.Steps))}
	for i, s := range p.Steps {
		v.Steps[i] = discipline.PlanStep{Title: s.Title, Status: s.Status}
	}
	return v
}
