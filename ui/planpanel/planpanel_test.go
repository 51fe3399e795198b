package planpanel

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/discipline"
	"github.com/keel-dev/keel/ui/theme"
)

// TestPlanPanelNamesToolsAsTheCheckpoint: the footer's success rates use
// the checkpoint's words (grep is "search"), from discipline.
func TestPlanPanelNamesToolsAsTheCheckpoint(t *testing.T) {
	var p Model
	p.SetPlan(agent.Plan{Goal: "g", Steps: []agent.Step{{Title: "s"}}})
	p.ToolDone("grep", true)
	p.ToolDone("grep", false)
	p.ToolDone("read_file", true)
	got := ""
	for _, l := range p.footer() {
		if strings.HasPrefix(l, "tools: ") {
			got = l
		}
	}
	want := "tools: " + discipline.ToolRate{Tool: "read_file", OK: 1, Total: 1}.String() + ", " +
		discipline.ToolRate{Tool: "grep", OK: 1, Total: 2}.String()
	if got != want || strings.Contains(got, "grep") {
		t.Fatalf("footer says %q, want %q", got, want)
	}
}

// The panel marks a step's dependencies, fallback, can-fail and side
// effects, and draws sub-steps under their parent.
func TestPlanPanelMarksAndNesting(t *testing.T) {
	var p Model
	p.SetPlan(agent.Plan{Goal: "ship", Steps: []agent.Step{
		{ID: "read", Title: "read the code", Status: agent.StepCompleted},
		{ID: "edit", Title: "edit the parser", Status: agent.StepActive, DependsOn: []string{"read"}, Fallback: "rewrite", SideEffects: true},
		{ID: "edit.1", Title: "find the line", Status: agent.StepActive, Parent: "edit"},
		{ID: "rewrite", Title: "rewrite it", Status: agent.StepPending},
		{ID: "lint", Title: "lint", Status: agent.StepPending, CanFail: true},
	}})
	view := ansi.Strip(p.View(theme.New(true, true), "*", 60, 30))
	for _, want := range []string{
		"#edit · after #read · fallback #rewrite · ⚠ side effects",
		"│   * find the line", // a sub-step, two columns in
		"#lint · may fail",
	} {
		if !strings.Contains(view, want) {
			t.Errorf("the panel lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "│   #read") {
		t.Errorf("a step nothing marks shows marks:\n%s", view)
	}
}
