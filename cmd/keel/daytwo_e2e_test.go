package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llmtest"
)

// Resuming a session logged in another project says so (issue 32: it went
// on in this workspace without a word).
func TestResumeFromAnotherProjectSaysSo(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("first"), llmtest.TextRound("second")))
	home, there, here := t.TempDir(), project(t), project(t)
	if _, errOut, code := runKeelHome(t, home, srv, there, "", "-p", "the first task"); code != 0 {
		t.Fatalf("keel -p: exit %d: %s", code, errOut)
	}
	out, _, _ := runKeelHome(t, home, nil, there, "", "log", "--json")
	var list []datalog.Session
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 1 {
		t.Fatalf("keel log: %v %s", err, out)
	}
	id := datalog.ShortID(list[0].ID)
	_, errOut, code := runKeelHome(t, home, srv, here, "", "-p", "--resume", id, "go on")
	if code != 0 || !strings.Contains(errOut, "was logged in another project, "+list[0].ProjectRoot) {
		t.Fatalf("resuming another project's session: exit %d, stderr %q", code, errOut)
	}
}
