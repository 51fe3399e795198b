package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
)

// The fault suite: a provider that misbehaves, through the binary. Each
// case asserts what a user sees (stderr in headless mode) and what keel
// did (the requests the server saw). Waits are lower bounds only: a busy
// machine makes them longer, never shorter.

// homeConfig writes the user config of a run's HOME.
func homeConfig(t *testing.T, toml string) string {
	t.Helper()
	home := t.TempDir()
	path := filepath.Join(home, "config", "keel", "config.toml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

// requestGap is the time between the server's first and second request.
func requestGap(t *testing.T, srv *llmtest.Server) time.Duration {
	t.Helper()
	reqs := srv.Requests()
	if len(reqs) < 2 {
		t.Fatalf("the server saw %d request(s), want a retry", len(reqs))
	}
	return reqs[1].ReceivedAt.Sub(reqs[0].ReceivedAt)
}

// A 503 with Retry-After is retried when the server said, not after a
// second's backoff (issue 26: 0.75 s for "Retry-After: 120"), at most
// max_retry_wait later; the wait is on stderr.
func TestFault503RetryAfter(t *testing.T) {
	tests := []struct {
		name, header, config string
		atLeast              time.Duration
		line                 string
	}{
		{"seconds", "2", "", 2 * time.Second, "openai failed (HTTP 503), retry 1 in 2 s, as it asked (Retry-After)"},
		{"capped by max_retry_wait", "3600", "max_retry_wait = \"2s\"\n", 2 * time.Second, "openai failed (HTTP 503), retry 1 in 2 s (it asked for 3600 s; max_retry_wait caps the wait at 2 s)"},
		// An hour ahead, capped: a date keel failed to read would back off < 1 s.
		{"http date", "", "max_retry_wait = \"2s\"\n", 2 * time.Second, "openai failed (HTTP 503), retry 1 in 2 s (it asked for 3"}, // 3599 or 3600 s
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			busy := llmtest.ErrorRound(503, "The server is overloaded")
			if tt.header == "" {
				tt.header = time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)
			}
			busy.Headers = http.Header{"Retry-After": {tt.header}}
			srv := llmtest.Start(t, llmtest.Rounds(busy, llmtest.TextRound("back again")))
			out, stderr, code := runKeelHome(t, homeConfig(t, tt.config), srv, project(t), "", "-p", "hello")
			if code != 0 || !strings.Contains(out, "back again") {
				t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, out, stderr)
			}
			if !strings.Contains(stderr, tt.line) {
				t.Errorf("stderr lacks %q:\n%s", tt.line, stderr)
			}
			if gap := requestGap(t, srv); gap < tt.atLeast {
				t.Errorf("retried after %v, want at least %v (Retry-After %s)", gap, tt.atLeast, tt.header)
			}
		})
	}
}

// A server that accepts the request and then says nothing is named on
// stderr while keel waits, abandoned at stream_idle_timeout, and retried.
// Keep-alive comments that never stop (a proxy holding an idle stream
// open) are no answer either: they held keel forever before.
func TestFaultSilentServer(t *testing.T) {
	tests := []struct {
		name   string
		round  llmtest.Round
		gaveUp string
	}{
		{"silent", llmtest.Round{Text: "never", Hang: true}, "↻ openai sent nothing for 2s, retry 1 in"},
		{"endless keep-alives", llmtest.Round{Text: "never", Hang: true, KeepAliveEvery: 200 * time.Millisecond},
			"↻ openai sent only keep-alive comments for 2s, retry 1 in"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := llmtest.Start(t, llmtest.Rounds(tt.round, llmtest.TextRound("awake now")))
			home := homeConfig(t, "stream_idle_timeout = \"2s\"\n")
			out, stderr, code := runKeelHome(t, home, srv, project(t), "", "-p", "hello")
			if code != 0 || !strings.Contains(out, "awake now") {
				t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, out, stderr)
			}
			for _, want := range []string{
				"… openai has sent nothing for 1 s; keel gives up on this attempt at 2 s (stream_idle_timeout)",
				tt.gaveUp,
			} {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
			if gap := requestGap(t, srv); gap < 2*time.Second {
				t.Errorf("abandoned after %v, before stream_idle_timeout (2s)", gap)
			}
		})
	}
}

// A base URL whose host does not exist fails at once with one sentence
// naming the URL and what to check; it is not retried. (.onion is never
// looked up in DNS by Go's resolver, so nothing leaves the machine.)
func TestFaultUnknownHost(t *testing.T) {
	t.Parallel()
	env := []string{"OPENAI_BASE_URL=http://keel-e2e-no-such-host.onion/v1", "GODEBUG=netdns=go"}
	_, stderr, code := runKeelEnv(t, t.TempDir(), env, nil, project(t), "", "-p", "hello")
	if code == 0 {
		t.Fatalf("exit 0 for an unknown host; stderr:\n%s", stderr)
	}
	for _, want := range []string{"keel-e2e-no-such-host.onion", "is not known (DNS)", "OPENAI_BASE_URL"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "↻") {
		t.Errorf("an unknown host was retried:\n%s", stderr)
	}
}

// A server that reports far fewer prompt tokens than it was sent (issue
// 26: ~1,000 for ~185k) does not keep keel from compacting: compaction
// goes by keel's estimate, and stderr says why.
func TestFaultLyingUsage(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("lorem ipsum dolor sit amet ", 400) // ~10.8 KB, ~2,700 tokens a round
	lie := &llmtest.Usage{PromptTokens: 100, CompletionTokens: 5}
	var writes atomic.Int32
	srv := llmtest.Start(t, llmtest.Script{Handler: func(req llmtest.RecordedRequest, _ int) llmtest.Round {
		if len(req.Tools) == 0 { // the compaction's summary request
			return llmtest.Round{Text: "summary: notes were written", Usage: lie}
		}
		n := writes.Add(1)
		if n > 4 {
			return llmtest.Round{Text: "all written", Usage: lie}
		}
		args := fmt.Sprintf(`{"path":"note%d.txt","content":%q}`, n, big)
		return llmtest.Round{ToolCalls: []llmtest.Call{{Name: "write_file", Args: args}}, Usage: lie}
	}})
	home := homeConfig(t, "compact_keep_rounds = 1\n[providers.openai]\ncontext_window = 8000\n")
	out, stderr, code := runKeelHome(t, home, srv, project(t), "", "-p", "write four notes", "--yolo")
	if code != 0 || !strings.Contains(out, "all written") {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, out, stderr)
	}
	if !strings.Contains(stderr, "the server reported 100 prompt tokens for a request keel estimates at") {
		t.Errorf("stderr does not say the usage was doubted:\n%s", stderr)
	}
	summaries := 0
	for _, r := range srv.Requests() {
		if len(r.Tools) == 0 {
			summaries++
		}
	}
	if summaries == 0 {
		t.Errorf("no compaction in %d requests for a history past the window", len(srv.Requests()))
	}
}

// A round of 200 calls under --max-tool-calls 10 stops saying how many
// ran and how many were skipped (issue 26: "1000 tool calls made", 10 ran).
func TestLimitStopCountsSkippedCalls(t *testing.T) {
	t.Parallel()
	calls := make([]llmtest.Call, 200)
	for i := range calls {
		calls[i] = llmtest.Call{Name: "list_dir", Args: `{"path":"."}`}
	}
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.ToolRound(calls...), llmtest.TextRound("never asked")))
	home := homeConfig(t, "[discipline]\nrepeat_halt = 0\nreread_halt = 0\n") // the same call 200 times is a loop too
	out, stderr, code := runKeelHome(t, home, srv, project(t), "", "-p", "look around", "--max-tool-calls", "10", "--output-format", "json")
	if code == 0 {
		t.Fatalf("exit 0 past max_tool_calls; stderr:\n%s", stderr)
	}
	want := "stopped at max_tool_calls (10): 10 tool calls made, 190 more the model asked for in the last round skipped, not run"
	if !strings.Contains(out+stderr, want) {
		t.Errorf("output lacks %q:\nstdout %s\nstderr %s", want, out, stderr)
	}
	if !strings.Contains(out, `"tool_calls":10`) {
		t.Errorf("the result counts other than the 10 calls made: %s", out)
	}
}
