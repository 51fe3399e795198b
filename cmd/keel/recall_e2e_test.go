package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llmtest"
)

// TestRecallAcrossRuns: a second keel run in the same project recalls the
// first run's prompt through the recall tool (its own session left out),
// and keel log search finds both from the command line.
func TestRecallAcrossRuns(t *testing.T) {
	home, dir := t.TempDir(), project(t)
	first := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("normalised")))
	out, errOut, code := runKeelHome(t, home, first, dir, "", "-p", "normalise the quaternion maths", "--output-format", "json")
	if code != 0 {
		t.Fatalf("first run: exit %d: %s", code, errOut)
	}
	firstID := sessionID(t, out)

	recall := llmtest.Call{Name: "recall", Args: `{"query":"quaternion"}`}
	second := llmtest.Start(t, llmtest.Rounds(llmtest.ToolRound(llmtest.Call{Name: "list_dir", Args: `{}`}),
		llmtest.ToolRound(recall), llmtest.TextRound("we did it before")))
	out, errOut, code = runKeelHome(t, home, second, dir, "", "-p", "quaternion again?", "--output-format", "json")
	if code != 0 {
		t.Fatalf("second run: exit %d: %s", code, errOut)
	}
	secondID := sessionID(t, out)
	msgs := second.Requests()[2].Messages
	result := msgs[len(msgs)-1].Content
	if !strings.Contains(result, datalog.ShortID(firstID)) || strings.Contains(result, datalog.ShortID(secondID)) {
		t.Errorf("recall in run 2 (%s) should find run 1 (%s) only:\n%s", secondID, firstID, result)
	}

	out, errOut, code = runKeelHome(t, home, nil, dir, "", "log", "search", "quaternion", "--json")
	if code != 0 {
		t.Fatalf("keel log search: exit %d: %s", code, errOut)
	}
	var hits []datalog.Hit
	if err := json.Unmarshal([]byte(out), &hits); err != nil {
		t.Fatalf("keel log search --json: %v\n%s", err, out)
	}
	found := map[string]bool{}
	for _, h := range hits {
		found[h.SessionID] = true
	}
	if !found[firstID] || !found[secondID] {
		t.Errorf("keel log search found %v, want both runs (%s, %s)", found, firstID, secondID)
	}
	out, _, _ = runKeelHome(t, home, nil, t.TempDir(), "", "log", "search", "quaternion")
	if !strings.Contains(out, "no past session matches") {
		t.Errorf("from another directory, without --all:\n%s", out)
	}
}

// sessionID reads session_id from a headless JSON result.
func sessionID(t *testing.T, out string) string {
	t.Helper()
	var res struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.SessionID == "" {
		t.Fatalf("no session id in %q (%v)", out, err)
	}
	return res.SessionID
}

// TestRecallStaysInItsProject: project B's recall does not find project
// A's session; asking for every project is a permission question, so a
// headless run without a rule is refused, and the rule "recall" allows it.
func TestRecallStaysInItsProject(t *testing.T) {
	home, projA, projB := t.TempDir(), project(t), project(t)
	first := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("rotated")))
	out, errOut, code := runKeelHome(t, home, first, projA, "", "-p", "rotate the zebrafish credentials", "--output-format", "json")
	if code != 0 {
		t.Fatalf("project A: exit %d: %s", code, errOut)
	}
	idA := datalog.ShortID(sessionID(t, out))
	recallIn := func(args string, extra ...string) string {
		srv := llmtest.Start(t, llmtest.Rounds(llmtest.ToolRound(llmtest.Call{Name: "recall", Args: args}), llmtest.TextRound("ok")))
		_, errOut, code := runKeelHome(t, home, srv, projB, "", append([]string{"-p", "what about zebrafish?", "--output-format", "json"}, extra...)...)
		if code != 0 {
			t.Fatalf("project B: exit %d: %s", code, errOut)
		}
		msgs := srv.Requests()[1].Messages
		return msgs[len(msgs)-1].Content
	}
	if got := recallIn(`{"query":"zebrafish"}`); strings.Contains(got, idA) || strings.Contains(got, "credentials") {
		t.Errorf("recall in project B found project A's session:\n%s", got)
	}
	if got := recallIn(`{"query":"zebrafish","all_projects":true}`); !strings.Contains(got, "permission denied") || strings.Contains(got, idA) {
		t.Errorf("recall over every project ran without asking:\n%s", got)
	}
	if got := recallIn(`{"query":"zebrafish","all_projects":true}`, "--allow", "recall"); !strings.Contains(got, idA) {
		t.Errorf("with the rule recall, the search of every project did not find project A (%s):\n%s", idA, got)
	}
}
