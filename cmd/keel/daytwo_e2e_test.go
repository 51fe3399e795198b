package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
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

// A base URL without the chat-completions endpoint (a server's 404 page)
// names the URL keel tried and the setting to check (issue 32: "HTTP
// 404: 404 page not found"), once: a 404 is not retried.
func TestWrongBasePathSaysWhatToCheck(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	home := t.TempDir()
	_, errOut, code := runKeelEnv(t, home, []string{"OPENAI_BASE_URL=" + srv.URL + "/api", "OPENAI_API_KEY=sk-test"}, nil, project(t), "", "-p", "hi")
	want := srv.URL + "/api/chat/completions"
	if code == 0 || !strings.Contains(errOut, want) || !strings.Contains(errOut, "OPENAI_BASE_URL") || hits.Load() != 1 {
		t.Fatalf("exit %d after %d requests; stderr should name %s and OPENAI_BASE_URL:\n%s", code, hits.Load(), want, errOut)
	}
}
