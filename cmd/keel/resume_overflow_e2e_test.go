package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
)

// windowServer answers like a model with a small context window: a
// request body over limit bytes is refused as too long, a summary request
// gets a summary, the first task's request a read of big.log, and any
// other request the answer.
func windowServer(t *testing.T, limit int) *llmtest.Server {
	return llmtest.Start(t, llmtest.Script{Handler: func(req llmtest.RecordedRequest, n int) llmtest.Round {
		switch {
		case len(req.Body) > limit:
			return llmtest.ErrorRound(http.StatusBadRequest, "This model's maximum context length is 8000 tokens (context_length_exceeded)")
		case len(req.Tools) == 0:
			return llmtest.Round{Text: "summary: big.log was read"}
		case n == 0:
			return llmtest.ToolRound(llmtest.Call{Name: "read_file", Args: `{"path":"big.log"}`})
		}
		return llmtest.TextRound("the log counts lines")
	}})
}

// Resuming a session whose history is one oversized tool result in a
// window it no longer fits (issue 26: it stopped with context_overflow
// "after 0 compactions"): the result is cut to its head and tail with a
// notice of what was cut and where it is whole, and the task runs. A
// prompt that cannot fit however much is cut stops with a message naming
// it.
func TestResumeShortensAnOversizedToolResult(t *testing.T) {
	t.Parallel()
	dir := project(t)
	var log strings.Builder
	for i := range 1200 {
		fmt.Fprintf(&log, "line %05d: the quick brown fox jumps over the lazy dog\n", i)
	}
	if err := os.WriteFile(filepath.Join(dir, "big.log"), []byte(log.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := windowServer(t, 1<<20) // the first run's window is large
	home := t.TempDir()
	if _, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "read big.log", "--max-turns", "1"); code == 0 || strings.Contains(errOut, "panic") {
		t.Fatalf("first run: exit %d (want the max-turns stop after the read): %s", code, errOut)
	}
	small := windowServer(t, 32000) // 8,000 tokens at 4 bytes
	withConfig(t, home, "[providers.openai]\ncontext_window = 8000\n")
	out, errOut, code := runKeelHome(t, home, small, dir, "", "-c", "-p", "what does it say?", "--output-format", "json")
	var res struct {
		Subtype string `json:"subtype"`
		Result  string `json:"result"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 || res.Result != "the log counts lines" {
		t.Fatalf("resume: exit %d, %q %q\nstderr: %s\n%s", code, res.Subtype, res.Result, errOut, out)
	}
	reqs := small.Requests()
	var result string
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == "tool" {
			result = m.Content
		}
	}
	for _, want := range []string{"line 00000:", "line 00399:", "continue with offset=401", "keel cut", "from the middle of this tool result", "keel log show "} {
		if !strings.Contains(result, want) {
			t.Errorf("the tool result sent lacks %q:\n%.600s", want, result)
		}
	}
	// A prompt larger than the window: nothing to cut; the stop names it.
	huge := strings.Repeat("describe every line in detail. ", 1200)
	out, errOut, code = runKeelHome(t, home, small, dir, "", "-c", "-p", huge, "--output-format", "json")
	if code == 0 || !strings.Contains(errOut+out, "a user message") {
		t.Errorf("an oversized prompt: exit %d, stderr:\n%s\n%s", code, errOut, out)
	}
}
