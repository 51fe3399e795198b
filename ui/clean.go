package ui

import (
	"errors"
	"slices"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/internal/termtext"
)

// The model's answers and arguments, tool output, file content and plans
// are sanitised (termtext.Sanitize) where they enter the UI, so no escape
// sequence or control character of theirs reaches the terminal: the
// agent's events in apply, the Bridge's questions, a resumed history. The
// text of transcript entries (streamed answers, whose deltas may split a
// sequence, and prompts) is sanitised when it is rendered, and the datalog
// browser sanitises what it draws. lipgloss and glamour pass such
// sequences through, and Bubble Tea's renderer acts on a carriage return.

// clean is termtext.Sanitize, short for the many fields below.
func clean(s string) string { return termtext.Sanitize(s) }

// cleanEvent returns ev with its text sanitised. Deltas are left whole:
// a sequence may be split across them, so the text they build is
// sanitised when rendered.
func cleanEvent(ev agent.Event) agent.Event {
	switch e := ev.(type) {
	case agent.StateChanged:
		e.Detail = clean(e.Detail)
		return e
	case agent.AnswerRestarted:
		e.Reason = clean(e.Reason)
		return e
	case agent.ToolStarted:
		e.Name, e.Args = clean(e.Name), clean(e.Args)
		return e
	case agent.ToolFinished:
		e.Name, e.Args, e.Output = clean(e.Name), clean(e.Args), clean(e.Output)
		e.DenyReason, e.Diff = clean(e.DenyReason), clean(e.Diff)
		return e
	case agent.InterventionFired:
		e.Intervention = cleanIntervention(e.Intervention)
		return e
	case agent.InterventionAnswered:
		e.Text = clean(e.Text)
		return e
	case agent.ReportUpdated:
		e.Lines, e.Stalled = cleanAll(e.Lines), cleanAll(e.Stalled)
		return e
	case agent.PlanChanged:
		e.Plan = cleanPlan(e.Plan)
		return e
	case agent.Retrying:
		e.Provider, e.Kind, e.Err = clean(e.Provider), clean(e.Kind), clean(e.Err)
		return e
	case agent.Notice:
		e.Text = clean(e.Text)
		return e
	case agent.TaskStopped:
		e.Message, e.Result = clean(e.Message), clean(e.Result)
		if e.Err != nil {
			if msg := clean(e.Err.Error()); msg != e.Err.Error() {
				e.Err = errors.New(msg)
			}
		}
		return e
	}
	return ev
}

func cleanIntervention(in agent.Intervention) agent.Intervention {
	in.Kind, in.Why, in.Message, in.Reply = clean(in.Kind), clean(in.Why), clean(in.Message), clean(in.Reply)
	return in
}

// cleanPlan returns p sanitised; its steps are copied first when one
// changes, as the agent owns the slice.
func cleanPlan(p agent.Plan) agent.Plan {
	p.Goal, p.Strategy, p.Status = clean(p.Goal), clean(p.Strategy), clean(p.Status)
	copied := false
	for i, s := range p.Steps {
		c := s
		c.Title, c.Status, c.Note = clean(s.Title), clean(s.Status), clean(s.Note)
		if c == s {
			continue
		}
		if !copied {
			p.Steps, copied = slices.Clone(p.Steps), true
		}
		p.Steps[i] = c
	}
	return p
}

func cleanPermission(r agent.PermissionRequest) agent.PermissionRequest {
	r.Tool, r.Args, r.Summary = clean(r.Tool), clean(r.Args), clean(r.Summary)
	r.Reason, r.Grant = clean(r.Reason), clean(r.Grant)
	return r
}

// cleanAll returns ss sanitised, copied only when a string changes.
func cleanAll(ss []string) []string {
	var out []string
	for i, s := range ss {
		c := clean(s)
		if c != s && out == nil {
			out = slices.Clone(ss)
		}
		if out != nil {
			out[i] = c
		}
	}
	if out == nil {
		return ss
	}
	return out
}
