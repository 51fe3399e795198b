package common

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

// Clean is termtext.Sanitize, short for the many fields ui sanitises.
func Clean(s string) string { return termtext.Sanitize(s) }

// CleanEvent returns ev with its text sanitised. Deltas are left whole:
// a sequence may be split across them, so the text they build is
// sanitised when rendered.
func CleanEvent(ev agent.Event) agent.Event {
	switch e := ev.(type) {
	case agent.StateChanged:
		e.Detail = Clean(e.Detail)
		return e
	case agent.AnswerRestarted:
		e.Reason = Clean(e.Reason)
		return e
	case agent.ToolStarted:
		e.Name, e.Args = Clean(e.Name), Clean(e.Args)
		return e
	case agent.ToolFinished:
		e.Name, e.Args, e.Output = Clean(e.Name), Clean(e.Args), Clean(e.Output)
		e.DenyReason, e.Diff = Clean(e.DenyReason), Clean(e.Diff)
		return e
	case agent.ToolProgress:
		e.Name, e.Progress.Message = Clean(e.Name), Clean(e.Progress.Message)
		return e
	case agent.InterventionFired:
		e.Intervention = CleanIntervention(e.Intervention)
		return e
	case agent.InterventionAnswered:
		e.Text = Clean(e.Text)
		return e
	case agent.ReportUpdated:
		e.Lines, e.Stalled = CleanAll(e.Lines), CleanAll(e.Stalled)
		return e
	case agent.PlanChanged:
		e.Plan = CleanPlan(e.Plan)
		return e
	case agent.Retrying:
		e.Provider, e.Kind, e.Err, e.Why = Clean(e.Provider), Clean(e.Kind), Clean(e.Err), Clean(e.Why)
		return e
	case agent.ProviderSilent:
		e.Provider = Clean(e.Provider)
		return e
	case agent.Notice:
		e.Text = Clean(e.Text)
		return e
	case agent.LessonsOffered:
		e.Note = Clean(e.Note)
		return e
	case agent.InternalError:
		e.What = Clean(e.What)
		return e
	case agent.JobChanged:
		e.Job.Command, e.Job.Workdir = Clean(e.Job.Command), Clean(e.Job.Workdir)
		return e
	case agent.HookRan:
		e.Matcher, e.Command, e.Tool, e.Agent, e.Reason = Clean(e.Matcher), Clean(e.Command), Clean(e.Tool), Clean(e.Agent), Clean(e.Reason)
		return e
	case agent.SubagentStarted:
		e.Agent, e.Description, e.Prompt, e.Tools = Clean(e.Agent), Clean(e.Description), Clean(e.Prompt), CleanAll(e.Tools)
		return e
	case agent.SubagentEvent:
		e.Agent, e.Event = Clean(e.Agent), CleanEvent(e.Event)
		return e
	case agent.SubagentFinished:
		e.Agent, e.Message, e.Result = Clean(e.Agent), Clean(e.Message), Clean(e.Result)
		return e
	case agent.TaskStopped:
		e.Message, e.Result = Clean(e.Message), Clean(e.Result)
		if e.Err != nil {
			if msg := Clean(e.Err.Error()); msg != e.Err.Error() {
				e.Err = errors.New(msg)
			}
		}
		return e
	}
	return ev
}

// CleanIntervention returns in with its text sanitised.
func CleanIntervention(in agent.Intervention) agent.Intervention {
	in.Kind, in.Why, in.Message, in.Reply = Clean(in.Kind), Clean(in.Why), Clean(in.Message), Clean(in.Reply)
	return in
}

// CleanPlan returns p sanitised; its steps are copied first, as the agent
// owns the slices.
func CleanPlan(p agent.Plan) agent.Plan {
	p.Goal, p.Strategy, p.Status = Clean(p.Goal), Clean(p.Strategy), Clean(p.Status)
	p.SuccessCriteria = slices.Clone(CleanAll(p.SuccessCriteria))
	p.Steps = slices.Clone(p.Steps)
	for i, s := range p.Steps {
		s.ID, s.Title, s.Status, s.Note = Clean(s.ID), Clean(s.Title), Clean(s.Status), Clean(s.Note)
		s.Fallback, s.Parent = Clean(s.Fallback), Clean(s.Parent)
		s.DependsOn = slices.Clone(CleanAll(s.DependsOn))
		s.Risks = slices.Clone(CleanAll(s.Risks))
		s.SuccessCriteria = slices.Clone(CleanAll(s.SuccessCriteria))
		p.Steps[i] = s
	}
	return p
}

// CleanPermission returns r with its text sanitised (a copy, for display).
func CleanPermission(r agent.PermissionRequest) agent.PermissionRequest {
	r.Tool, r.Args, r.Summary = Clean(r.Tool), Clean(r.Args), Clean(r.Summary)
	r.Reason, r.Grant, r.Agent = Clean(r.Reason), Clean(r.Grant), Clean(r.Agent)
	return r
}

// CleanAll returns ss sanitised, copied only when a string changes.
func CleanAll(ss []string) []string {
	var out []string
	for i, s := range ss {
		c := Clean(s)
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
