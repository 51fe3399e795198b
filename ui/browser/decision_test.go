package browser

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/ui/theme"
)

// A logged call's line in the browser says what allowed it, as keel log
// show does (issue 32 leftovers: a session grant read "allow by rule").
func TestBrowserSaysWhoAllowedEachCall(t *testing.T) {
	st := theme.New(true, false)
	rd := &datalog.RoundDetail{Round: datalog.Round{TaskSeq: 1}, ToolCalls: []datalog.ToolCall{
		{Name: "write_file", Permission: "allow", DecidedBy: datalog.DecidedByUserSession + "write_file: all edits this session"},
		{Name: "write_file", Permission: "allow", DecidedBy: datalog.DecidedBySession + "write_file: all edits this session"},
		{Name: "run_command", Permission: "allow", DecidedBy: datalog.DecidedByRuleNamed + "run_command:go test *"},
		{Name: "read_file", Permission: "allow", DecidedBy: datalog.DecidedByPolicy},
	}}
	text := ansi.Strip(strings.Join(roundFull(st, rd, 200), "\n"))
	for _, want := range []string{
		"asked, allowed for the session by the user: write_file: all edits this session",
		"allowed for the session by an earlier answer: write_file: all edits this session",
		"allowed always by a rule in config: run_command:go test *",
		"auto-allowed: read-only",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the round lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "by rule") || strings.Contains(text, "by session") {
		t.Errorf("the round shows a raw source:\n%s", text)
	}
}
