package datalog

import "testing"

// Each source of a permission decision reads as what happened, and none
// says "by rule" for a grant (issue 32 leftovers).
func TestDecisionText(t *testing.T) {
	cases := []struct{ perm, by, want string }{
		{"allow", DecidedByUserOnce, "asked, allowed once by the user"},
		{"allow", DecidedByUserSession + "run_command: go test …", "asked, allowed for the session by the user: run_command: go test …"},
		{"allow", DecidedByUserAlways + "fetch:go.dev", "asked, allowed always by the user, saved in config: fetch:go.dev"},
		{"allow", DecidedBySession + "edit_file: all edits this session", "allowed for the session by an earlier answer: edit_file: all edits this session"},
		{"allow", DecidedByRuleNamed + "run_command:go test *", "allowed always by a rule in config: run_command:go test *"},
		{"allow", DecidedByPolicy, "auto-allowed: read-only"},
		{"allow", DecidedByYolo, "allowed by --yolo"},
		{"allow", DecidedByHook, "allowed by a PreToolUse hook"},
		{"allow", DecidedByUser, "asked, allowed by the user"},
		{"allow", DecidedByRule, "allowed by a rule or an earlier answer for the session"}, // rows from before the distinction
		{"deny", DecidedByUser, "denied by the user"},
		{"deny", DecidedByPolicy, "denied by the policy"},
		{"deny", DecidedByHook, "denied by a PreToolUse hook"},
		{"", "", ""},
	}
	for _, c := range cases {
		if got := DecisionText(c.perm, "run_command", c.by); got != c.want {
			t.Errorf("DecisionText(%q, %q) = %q, want %q", c.perm, c.by, got, c.want)
		}
	}
	if got := UserAllowed("fetch", DecidedByUserAlways+"fetch:go.dev"); got != "allowed always: fetch:go.dev" {
		t.Errorf("UserAllowed(always) = %q", got)
	}
}
