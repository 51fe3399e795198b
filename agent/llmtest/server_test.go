package llmtest_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
)

func post(t *testing.T, url, body string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url+"/chat/completions", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer k")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

const streamBody = `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"},` +
	`{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},` +
	`{"role":"tool","tool_call_id":"c1","content":"out"}],"tools":[{"type":"function","function":{"name":"f"}}]}`

// dataLines returns the payloads of the SSE data lines.
func dataLines(body string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		if p, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			out = append(out, p)
		}
	}
	return out
}

func TestServerScriptsAndRecords(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("hello"), llmtest.RateLimitRound("7")))
	if !strings.HasSuffix(srv.URL(), "/v1") || !strings.HasPrefix(srv.URL(), "http://127.0.0.1:") {
		t.Fatalf("URL %q", srv.URL())
	}
	resp, body := post(t, srv.URL(), streamBody)
	lines := dataLines(body)
	if resp.Header.Get("Content-Type") != "text/event-stream" || lines[len(lines)-1] != "[DONE]" {
		t.Fatalf("stream: %s %q", resp.Header.Get("Content-Type"), body)
	}
	resp, body = post(t, srv.URL(), streamBody)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "7" || !strings.Contains(body, `"error"`) {
		t.Errorf("fault round: %d %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	resp, body = post(t, srv.URL(), streamBody)
	if resp.StatusCode != 500 || !strings.Contains(body, "request 2 has no scripted round (the script has 2)") {
		t.Errorf("past the end: %d %s", resp.StatusCode, body)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests recorded", len(reqs))
	}
	r := reqs[0]
	if r.Model != "m" || !r.Stream || r.Header.Get("Authorization") != "Bearer k" || r.Tools[0] != "f" {
		t.Errorf("recorded %+v", r)
	}
	if m := r.Messages[1]; m.Role != "assistant" || m.RawContent != nil || m.ToolCalls[0] != (llmtest.Call{ID: "c1", Name: "f", Args: "{}"}) {
		t.Errorf("assistant message %+v", m)
	}
	if m := r.Messages[2]; m.ToolCallID != "c1" || m.Content != "out" {
		t.Errorf("tool message %+v", m)
	}
	for _, r := range reqs {
		if r.ReceivedAt.IsZero() || r.FinishedAt.Before(r.ReceivedAt) {
			t.Errorf("request %d timestamps %v %v", r.N, r.ReceivedAt, r.FinishedAt)
		}
	}
}

func TestServerChunks(t *testing.T) {
	round := llmtest.Round{
		Text: "héllo", TextChunk: 1, Reasoning: "r", ReasoningField: "reasoning",
		ToolCalls: []llmtest.Call{{Name: "f", Args: `{"a":1}`}, {Name: "g", Args: `{}`}}, ArgChunk: 1, Interleave: true,
		Placement: llmtest.UsageInFinishChunk, Usage: &llmtest.Usage{PromptTokens: 5, CachedTokens: 3},
		Quirks: llmtest.Quirks{PlaceholderFirstChunk: true, OmitIndex: true, NullContent: true, ExtraFields: true},
	}
	srv := llmtest.Start(t, llmtest.Rounds(round))
	_, body := post(t, srv.URL(), streamBody)
	lines := dataLines(body)
	var first struct{ Choices []any }
	_ = json.Unmarshal([]byte(lines[0]), &first)
	if len(first.Choices) != 0 {
		t.Errorf("placeholder chunk %s", lines[0])
	}
	for _, want := range []string{`"reasoning":"r"`, `"content":"é"`, `"content":null`, `"x_llmtest_extra"`, `"cached_tokens":3`, `"id":"call_1"`} {
		if !strings.Contains(body, want) {
			t.Errorf("stream lacks %s", want)
		}
	}
	if strings.Contains(body, `"index":1`) {
		t.Errorf("index sent despite OmitIndex")
	}
	if fin := lines[len(lines)-2]; !strings.Contains(fin, `"finish_reason":"tool_calls"`) || !strings.Contains(fin, `"prompt_tokens":5`) {
		t.Errorf("finish chunk %s", fin)
	}
}

func TestServerFaultsEndTheStream(t *testing.T) {
	tests := []struct {
		name  string
		round llmtest.Round
		check func(body string) bool
	}{
		{"truncate", llmtest.Round{Text: "abcdef", TextChunk: 1, TruncateAfter: 3}, func(b string) bool {
			return len(dataLines(b)) == 3 && !strings.Contains(b, "[DONE]") && !strings.Contains(b, "finish_reason\":\"")
		}},
		{"keep-alives", llmtest.Round{Text: "x", KeepAlives: 1000}, func(b string) bool {
			return strings.Count(b, ": keep-alive\n\n") == 1000 && strings.HasSuffix(b, "data: [DONE]\n\n")
		}},
		{"no done", llmtest.Round{Text: "x", Quirks: llmtest.Quirks{NoDone: true}}, func(b string) bool {
			return !strings.Contains(b, "[DONE]")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.Start(t, llmtest.Rounds(tt.round))
			if _, body := post(t, srv.URL(), streamBody); !tt.check(body) {
				t.Errorf("body %q", body)
			}
		})
	}
}

func TestServerHandlerAndNonStreaming(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Handler: func(r llmtest.RecordedRequest, n int) llmtest.Round {
		return llmtest.Round{Text: r.Messages[0].Content + " back", ToolCalls: []llmtest.Call{{ID: "x", Name: "f", Args: "{}"}}}
	}})
	_, body := post(t, srv.URL(), `{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
	var got struct {
		Object  string
		Choices []struct {
			Message struct {
				Content   string
				ToolCalls []struct{ ID string } `json:"tool_calls"`
			}
			FinishReason string `json:"finish_reason"`
		}
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatal(err, body)
	}
	c := got.Choices[0]
	if got.Object != "chat.completion" || c.Message.Content != "hi back" || c.Message.ToolCalls[0].ID != "x" || c.FinishReason != "tool_calls" {
		t.Errorf("non-streaming answer %s", body)
	}
}

func TestServerConcurrentRequests(t *testing.T) {
	srv := llmtest.NewServer(llmtest.Script{Handler: func(llmtest.RecordedRequest, int) llmtest.Round { return llmtest.TextRound("ok") }})
	defer srv.Close()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			post(t, srv.URL(), streamBody)
			_ = srv.Requests()
		})
	}
	wg.Wait()
	if n := len(srv.Requests()); n != 8 {
		t.Errorf("%d requests recorded, want 8", n)
	}
}

func TestServerCloseReleasesHangs(t *testing.T) {
	started := make(chan struct{})
	srv := llmtest.NewServer(llmtest.Script{Handler: func(llmtest.RecordedRequest, int) llmtest.Round {
		close(started)
		return llmtest.Round{Hang: true}
	}})
	done := make(chan struct{})
	go func() {
		defer close(done)
		resp, err := http.Post(srv.URL()+"/chat/completions", "application/json", strings.NewReader(streamBody))
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("the request never arrived")
	}
	srv.Close() // must return although the round hangs
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the client never returned after Close")
	}
	srv.Close() // idempotent
	if r := srv.Requests()[0]; r.FinishedAt.IsZero() {
		t.Error("hanging request has no FinishedAt after Close")
	}
}
