package planpanel

import (
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/discipline"
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
