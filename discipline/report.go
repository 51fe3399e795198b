package discipline

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// ReflectionReport is the periodic report computed from round data (not by
// the model): it rides on every checkpoint and fills the plan panel footer.
type ReflectionReport struct {
	HasPlan        bool          // the task has a plan with steps
	CompletedSince []string      // steps completed since the last checkpoint
	Stalled        []StalledStep // active longer than Policy.StallThreshold rounds
	Tools          []ToolRate    // per tool over the task, by name
	ContextUsed    int           // tokens of the last request
	ContextWindow  int           // 0 when unknown
}

// StalledStep is a plan step that has stayed active for Rounds rounds.
type StalledStep struct {
	Title  string
	Rounds int
}

// ToolRate counts one tool's calls over the task and how many succeeded.
type ToolRate struct {
	Tool      string
	OK, Total int
}

// String renders the rate as "edit_file 4/6".
func (r ToolRate) String() string {
	return fmt.Sprintf("%s %d/%d", neutralName(r.Tool), r.OK, r.Total)
}

// neutralName keeps the checkpoint free of ecosystem words: keel's text
// search tool shares its name with a Unix program, so it is shown as
// "search".
func neutralName(tool string) string {
	if tool == "grep" {
		return "search"
	}
	return tool
}

// Report computes the reflection report from the carried state: the plan
// and context figures of the last round, the task's tool counts, and the
// completed steps recorded at the last checkpoint.
func Report(s State, p Policy) ReflectionReport {
	r := ReflectionReport{HasPlan: len(s.plan.Steps) > 0, ContextUsed: s.ctxUsed, ContextWindow: s.ctxWindow}
	for _, t := range s.plan.titles(StepCompleted) {
		if !slices.Contains(s.doneAtCheckpoint, t) {
			r.CompletedSince = append(r.CompletedSince, t)
		}
	}
	for _, st := range s.plan.Steps {
		since, ok := s.activeSince[st.Title]
		if st.Status != StepActive || !ok || p.StallThreshold <= 0 {
			continue
		}
		if n := s.round - since + 1; n > p.StallThreshold { // rounds it was active in
			r.Stalled = append(r.Stalled, StalledStep{Title: st.Title, Rounds: n})
		}
	}
	for _, t := range s.tools {
		r.Tools = append(r.Tools, t)
	}
	sort.Slice(r.Tools, func(i, j int) bool { return r.Tools[i].Tool < r.Tools[j].Tool })
	return r
}

// Lines renders the report, one finding per line; empty parts are left out.
func (r ReflectionReport) Lines() []string {
	var out []string
	switch {
	case len(r.CompletedSince) > 0:
		out = append(out, "Completed since the last checkpoint: "+quoteList(r.CompletedSince, maxListed)+".")
	case r.HasPlan:
		out = append(out, "Completed since the last checkpoint: no plan steps.")
	}
	for _, st := range r.Stalled {
		out = append(out, fmt.Sprintf("Step %q has been active for %s: consider splitting it into smaller steps.", st.Title, plural(st.Rounds, "round")))
	}
	if len(r.Tools) > 0 {
		rates := make([]string, len(r.Tools))
		for i, t := range r.Tools {
			rates[i] = t.String()
		}
		out = append(out, "Tool success over the task: "+strings.Join(rates, ", ")+".")
	}
	if r.ContextWindow > 0 {
		out = append(out, fmt.Sprintf("Context: %d of %d tokens used (%d%%).", r.ContextUsed, r.ContextWindow, r.ContextUsed*100/r.ContextWindow))
	}
	return out
}

// countTool records one call in the per-tool success rates.
func (s *State) countTool(c ToolCall) {
	if s.tools == nil {
		s.tools = map[string]ToolRate{}
	}
	r := s.tools[c.Name]
	r.Tool = c.Name
	r.Total++
	if !c.IsError && c.ExitCode == 0 {
		r.OK++
	}
	s.tools[c.Name] = r
}
