// Package planpanel shows the model's plan: on a wide screen a side panel
// with the goal, the strategy, each step with its status (the active one
// spinning) and a footer, the reflection report (steps done, done since
// the last checkpoint, stalled steps, each tool's success rate as the
// checkpoint names it, context use); on a narrow one a single folded line.
// The Model owns the plan and the footer's figures, fed from the agent's
// events by the root model; ctrl+p hides it.
package planpanel

import (
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/discipline"
	"github.com/keel-dev/keel/ui/common"
	"github.com/keel-dev/keel/ui/theme"
)

// Model is the model's plan and the reflection report's figures.
type Model struct {
	plan   *agent.Plan
	hidden bool // toggled with ctrl+p

	// The footer's figures, kept from events: tool success over the task,
	// steps completed since the last checkpoint, context pressure.
	tools         map[string][2]int // ok, total
	doneAtCheck   map[string]bool
	ctxTokens     int
	ctxWindow     int
	checkpointHit bool
	stalled       []string // from the agent's reflection report
}

// New is an empty panel for a context window of window tokens.
func New(window int) Model { return Model{ctxWindow: window} }

// Reset forgets the plan and its figures (another session), keeping
// whether the panel is hidden and the context window.
func (p *Model) Reset() {
	*p = Model{ctxWindow: p.ctxWindow, hidden: p.hidden}
}

// Compacted lowers the footer's context figure by what /compact removed.
func (p *Model) Compacted(c agent.ContextCompacted) { p.ctxTokens = c.Lower(p.ctxTokens) }

// Usage takes the context figures for the footer.
func (p *Model) Usage(u agent.UsageUpdated) {
	p.ctxTokens = u.ContextTokens
	if u.ContextWindow > 0 {
		p.ctxWindow = u.ContextWindow
	}
}

// SetStalled takes the steps the reflection report calls stalled.
func (p *Model) SetStalled(steps []string) { p.stalled = steps }

// Toggle shows or hides the panel; it reports false when there is no plan.
func (p *Model) Toggle() bool {
	if p.plan == nil {
		return false
	}
	p.hidden = !p.hidden
	return true
}

// SetPlan shows a new version of the plan (a copy: the agent owns it).
func (p *Model) SetPlan(pl agent.Plan) {
	c := pl
	c.Steps = append([]agent.Step(nil), pl.Steps...)
	p.plan = &c
}

// ToolDone counts a finished call for the footer's success rates.
func (p *Model) ToolDone(name string, ok bool) {
	if p.tools == nil {
		p.tools = map[string][2]int{}
	}
	r := p.tools[name]
	r[1]++
	if ok {
		r[0]++
	}
	p.tools[name] = r
}

// Checkpoint marks the steps completed so far, for "completed since".
func (p *Model) Checkpoint() {
	p.checkpointHit = true
	p.doneAtCheck = map[string]bool{}
	if p.plan == nil {
		return
	}
	for _, s := range p.plan.Steps {
		if s.Status == agent.StepCompleted {
			p.doneAtCheck[s.Title] = true
		}
	}
}

// NewTask resets the per-task figures.
func (p *Model) NewTask() {
	p.tools, p.doneAtCheck, p.checkpointHit = nil, nil, false
}

// Visible reports whether there is a plan to show and it is not hidden.
func (p *Model) Visible() bool { return p.plan != nil && !p.hidden }

func stepGlyph(st theme.Styles, spin, status string) (string, common.Styler) {
	switch status {
	case agent.StepActive:
		return spin, st.Accent
	case agent.StepCompleted:
		return "✓", st.OK
	case agent.StepFailed:
		return "✗", st.Fail
	case agent.StepSkipped:
		return "–", st.Dim
	}
	return "○", st.Dim
}

// View renders the side panel for width columns and height rows.
func (p *Model) View(st theme.Styles, spin string, width, height int) string {
	inner := width - 2 // border and padding
	pl := p.plan
	title := "Plan"
	if pl.Attempt > 0 {
		title += fmt.Sprintf(" · attempt %d", pl.Attempt)
	}
	if pl.Status != "" && pl.Status != agent.PlanActive {
		title += " · " + pl.Status
	}
	lines := []string{st.Title.Render(ansi.Truncate(title, inner, "…"))}
	lines = append(lines, common.Wrap(st.Bold.UnsetBold(), pl.Goal, inner)...)
	if pl.Strategy != "" {
		lines = append(lines, common.Wrap(st.Dim.Italic(true), "strategy: "+pl.Strategy, inner)...)
	}
	lines = append(lines, "")
	for _, s := range pl.Steps {
		lines = append(lines, stepLines(st, spin, s, inner)...)
	}
	if foot := p.footer(); len(foot) > 0 {
		lines = append(lines, "", st.Bold.Render("report"))
		for _, f := range foot {
			lines = append(lines, common.Wrap(st.Dim, f, inner)...)
		}
	}
	if len(lines) > height {
		lines = append(lines[:height-1], st.Dim.Render("…"))
	}
	return st.Panel.Height(height).Width(width).Render(strings.Join(lines, "\n"))
}

// stepLines draws a step: its glyph and title, its marks (marks.go) on a
// dim line below, and a failed or skipped step's note. A sub-step is
// drawn two columns in, under its parent.
func stepLines(st theme.Styles, spin string, s agent.Step, width int) []string {
	indent := ""
	if s.Parent != "" {
		indent = "  "
		width -= 2
	}
	g, gs := stepGlyph(st, spin, s.Status)
	title := s.Title
	style := st.Status
	if s.Status == agent.StepActive {
		style = st.Bold
	}
	wrapped := strings.Split(ansi.Wrap(title, max(width-2, 1), ""), "\n")
	out := make([]string, 0, len(wrapped)+2)
	for i, l := range wrapped {
		prefix := "  "
		if i == 0 {
			prefix = gs.Render(g) + " "
		}
		out = append(out, indent+prefix+style.Render(l))
	}
	if m := stepMarks(s); m != "" {
		lines := common.Wrap(st.Dim, m, max(width-2, 1))
		common.Indent(lines, indent+"  ")
		out = append(out, lines...)
	}
	if s.Note != "" && (s.Status == agent.StepFailed || s.Status == agent.StepSkipped) {
		note := common.Wrap(st.Dim.Italic(true), s.Note, width-4)
		common.Indent(note, indent+"    ")
		out = append(out, note...)
	}
	return out
}

// footer is the reflection report: progress, success rates, context.
func (p *Model) footer() []string {
	var out []string
	c := p.plan.Counts()
	out = append(out, fmt.Sprintf("%d/%d steps done", c[agent.StepCompleted], len(p.plan.Steps)))
	if p.checkpointHit {
		n := 0
		for _, s := range p.plan.Steps {
			if s.Status == agent.StepCompleted && !p.doneAtCheck[s.Title] {
				n++
			}
		}
		out = append(out, fmt.Sprintf("%d completed since the last checkpoint", n))
	}
	for _, st := range p.stalled {
		out = append(out, "stalled: "+st+"; split it into smaller steps")
	}
	if len(p.tools) > 0 {
		rates := make([]string, 0, len(p.tools))
		for n, c := range p.tools {
			// discipline names a tool as the checkpoint does (grep is "search")
			rates = append(rates, discipline.ToolRate{Tool: n, OK: c[0], Total: c[1]}.String())
		}
		sort.Strings(rates)
		out = append(out, "tools: "+strings.Join(rates, ", "))
	}
	if p.ctxWindow > 0 {
		out = append(out, fmt.Sprintf("context %d%% of %s", p.ctxTokens*100/p.ctxWindow, common.Tokens(p.ctxWindow)))
	}
	return out
}

// Summary is the folded plan: one line above the input.
func (p *Model) Summary(st theme.Styles, spin string, width int) string {
	pl := p.plan
	c := pl.Counts()
	s := fmt.Sprintf("plan %d/%d", c[agent.StepCompleted], len(pl.Steps))
	if pl.Attempt > 0 {
		s += fmt.Sprintf(" · attempt %d", pl.Attempt)
	}
	cur := ""
	for _, step := range pl.Steps {
		if step.Status == agent.StepActive {
			cur = spin + " " + step.Title
			break
		}
	}
	if cur == "" {
		cur = pl.Goal
	}
	line := st.Accent.Render(s) + st.Dim.Render(" │ ") + cur + st.Dim.Render("  (ctrl+p hides)")
	return ansi.Truncate(line, width, "…")
}
