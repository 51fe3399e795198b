package llm_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/agent/llmtest"
)

// fakeSleep records the waits and returns at once (or ctx's error).
type fakeSleep struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (f *fakeSleep) Sleep(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	f.waits = append(f.waits, d)
	f.mu.Unlock()
	return ctx.Err()
}

func repeat(r llmtest.Round, n int) []llmtest.Round {
	out := make([]llmtest.Round, n)
	for i := range out {
		out[i] = r
	}
	return out
}

func TestRetrier(t *testing.T) {
	date := time.Now().Add(30 * time.Second).UTC().Format(http.TimeFormat)
	fail500 := llmtest.ErrorRound(500, "boom")
	ok := llmtest.TextRound("done")
	tests := []struct {
		name     string
		scripts  [][]llmtest.Round // one per client
		idle     time.Duration
		wantErr  llm.Kind // KindUnknown: success
		waits    []time.Duration
		approx   bool  // waits are upper bounds within 2 s (HTTP dates)
		requests []int // per client
		notes    []string
		cap      time.Duration // max_retry_wait; 0: the default
	}{
		{name: "429 retry-after seconds then success", scripts: [][]llmtest.Round{{llmtest.RateLimitRound("12"), ok}},
			waits: []time.Duration{12 * time.Second}, requests: []int{2}, notes: []string{"rate limited by a, retrying in 12 s"}},
		{name: "429 retry-after http date", scripts: [][]llmtest.Round{{llmtest.RateLimitRound(date), ok}},
			waits: []time.Duration{30 * time.Second}, approx: true, requests: []int{2}},
		{name: "429 wait capped at 120 s", scripts: [][]llmtest.Round{{llmtest.RateLimitRound("600"), ok}},
			waits: []time.Duration{120 * time.Second}, requests: []int{2},
			notes: []string{"rate limited by a, retrying in 120 s (it asked for 600 s; max_retry_wait caps the wait at 120 s)"}},
		{name: "429 at most 5 waits", scripts: [][]llmtest.Round{repeat(llmtest.RateLimitRound("1"), 6)},
			wantErr: llm.KindRateLimited, waits: repeatD(time.Second, 5), requests: []int{6}},
		{name: "5xx backoff then success", scripts: [][]llmtest.Round{{fail500, fail500, ok}},
			waits: []time.Duration{750 * time.Millisecond, 1500 * time.Millisecond}, requests: []int{3},
			notes: []string{"a failed (HTTP 500), retry 1 in 1 s", "a failed (HTTP 500), retry 2 in 2 s"}},
		{name: "503 retry-after seconds is honoured", scripts: [][]llmtest.Round{{unavailable("120"), ok}},
			waits: []time.Duration{120 * time.Second}, requests: []int{2},
			notes: []string{"a failed (HTTP 503), retry 1 in 120 s, as it asked (Retry-After)"}},
		{name: "503 retry-after http date", scripts: [][]llmtest.Round{{unavailable(date), ok}},
			waits: []time.Duration{30 * time.Second}, approx: true, requests: []int{2}},
		{name: "503 retry-after past the configured cap", scripts: [][]llmtest.Round{{unavailable("600"), ok}}, cap: 45 * time.Second,
			waits: []time.Duration{45 * time.Second}, requests: []int{2},
			notes: []string{"a failed (HTTP 503), retry 1 in 45 s (it asked for 600 s; max_retry_wait caps the wait at 45 s)"}},
		{name: "429 capped by the configured cap", scripts: [][]llmtest.Round{{llmtest.RateLimitRound("600"), ok}}, cap: 5 * time.Second,
			waits: []time.Duration{5 * time.Second}, requests: []int{2}},
		{name: "502 retry-after garbage backs off", scripts: [][]llmtest.Round{{withRetryAfter(llmtest.ErrorRound(502, "bad gateway"), "soon"), ok}},
			waits: []time.Duration{750 * time.Millisecond}, requests: []int{2}},
		{name: "503 retries are still counted", scripts: [][]llmtest.Round{repeat(unavailable("2"), 4)},
			wantErr: llm.KindTransient, waits: repeatD(2*time.Second, 3), requests: []int{4}},
		{name: "3 retries then fallback", scripts: [][]llmtest.Round{repeat(fail500, 4), {ok}},
			waits: []time.Duration{750 * time.Millisecond, 1500 * time.Millisecond, 3 * time.Second, 0}, requests: []int{4, 1},
			notes: []string{"a failed (HTTP 500), switching to b"}},
		{name: "all fail", scripts: [][]llmtest.Round{repeat(fail500, 4), repeat(llmtest.ErrorRound(503, "down"), 4)},
			wantErr: llm.KindTransient, requests: []int{4, 4}},
		{name: "truncated then success", scripts: [][]llmtest.Round{{{Text: "partial answer", TextChunk: 2, TruncateAfter: 3}, ok}},
			requests: []int{2}, waits: []time.Duration{750 * time.Millisecond}},
		{name: "idle then success", scripts: [][]llmtest.Round{{{Text: "x", Hang: true}, ok}}, idle: time.Second, // the answer after must start within it
			requests: []int{2}, waits: []time.Duration{750 * time.Millisecond}},
		{name: "401 returns at once", scripts: [][]llmtest.Round{{llmtest.ErrorRound(401, "bad key")}, {ok}},
			wantErr: llm.KindAuth, requests: []int{1, 0}},
		{name: "context length returns at once", scripts: [][]llmtest.Round{{llmtest.ContextLengthRound()}, {ok}},
			wantErr: llm.KindContextLength, requests: []int{1, 0}},
		{name: "bad request returns at once", scripts: [][]llmtest.Round{{llmtest.ErrorRound(400, "bad tool schema")}, {ok}},
			wantErr: llm.KindBadRequest, requests: []int{1, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var servers []*llmtest.Server
			var clients []*llm.Client
			for i, s := range tt.scripts {
				srv := llmtest.Start(t, llmtest.Rounds(s...))
				servers = append(servers, srv)
				clients = append(clients, llm.New(llm.Config{BaseURL: srv.URL(), Model: "m", Name: string(rune('a' + i)), IdleTimeout: tt.idle}))
			}
			sleep := &fakeSleep{}
			var infos []llm.RetryInfo
			r := &llm.Retrier{MaxRateLimitWait: tt.cap, Sleep: sleep.Sleep, Rand: func() float64 { return 0.5 }, OnRetry: func(i llm.RetryInfo) { infos = append(infos, i) }}
			resp, err := r.Stream(context.Background(), clients, userRequest(), nil)
			if tt.wantErr == llm.KindUnknown {
				if err != nil || resp.Content != "done" {
					t.Fatalf("Stream = %q, %v", resp.Content, err)
				}
			} else if e := llm.Classify(err); e == nil || e.Kind != tt.wantErr {
				t.Fatalf("error %v, want kind %v", err, tt.wantErr)
			}
			checkWaits(t, sleep.waits, infos, tt.waits, tt.approx)
			for i, srv := range servers {
				if got := len(srv.Requests()); got != tt.requests[i] {
					t.Errorf("client %d got %d requests, want %d", i, got, tt.requests[i])
				}
			}
			var notes []string
			for _, in := range infos {
				notes = append(notes, in.String())
			}
			for _, n := range tt.notes {
				if !strings.Contains(strings.Join(notes, "\n"), n) {
					t.Errorf("notes %q lack %q", notes, n)
				}
			}
		})
	}
}

// unavailable is a 503 with Retry-After v.
func unavailable(v string) llmtest.Round {
	return withRetryAfter(llmtest.ErrorRound(503, "The server is overloaded"), v)
}

func withRetryAfter(r llmtest.Round, v string) llmtest.Round {
	r.Headers = http.Header{"Retry-After": {v}}
	return r
}

func repeatD(d time.Duration, n int) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = d
	}
	return out
}

// checkWaits compares the sleeps (and the Wait of each RetryInfo; a
// fallback notice has Wait 0 and no sleep).
func checkWaits(t *testing.T, slept []time.Duration, infos []llm.RetryInfo, want []time.Duration, approx bool) {
	t.Helper()
	if want == nil {
		return
	}
	var got []time.Duration
	for _, in := range infos {
		got = append(got, in.Wait)
	}
	if len(got) != len(want) {
		t.Fatalf("retry waits %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] && !(approx && got[i] <= want[i] && got[i] > want[i]-2*time.Second) {
			t.Errorf("wait %d = %v, want %v", i, got[i], want[i])
		}
	}
	var nonzero []time.Duration
	for _, w := range got {
		if w > 0 {
			nonzero = append(nonzero, w)
		}
	}
	if len(slept) != len(nonzero) {
		t.Errorf("slept %v, want %v", slept, nonzero)
	}
}

func TestRetrierTellsConsumerToDropPartialText(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.Round{Text: "first try", TextChunk: 3, TruncateAfter: 3}, llmtest.TextRound("second")))
	var shown strings.Builder
	var partial bool
	r := &llm.Retrier{Sleep: (&fakeSleep{}).Sleep, OnRetry: func(in llm.RetryInfo) {
		partial = in.Partial
		shown.Reset() // what a UI does: drop the failed attempt's text
	}}
	resp, err := r.Stream(context.Background(), []*llm.Client{client(srv, 0)}, userRequest(), func(d llm.Delta) {
		shown.WriteString(d.Text)
	})
	if err != nil || resp.Content != "second" || shown.String() != "second" || !partial {
		t.Fatalf("resp %q, shown %q, partial %v, err %v", resp.Content, shown.String(), partial, err)
	}
}

func TestRetrierFallbackUsesItsOwnModel(t *testing.T) {
	a := llmtest.Start(t, llmtest.Rounds(repeat(llmtest.ErrorRound(502, "bad gateway"), 4)...))
	b := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("ok")))
	ca := llm.New(llm.Config{BaseURL: a.URL(), Model: "model-a", Name: "a"})
	cb := llm.New(llm.Config{BaseURL: b.URL(), Model: "model-b", Name: "b"})
	req := userRequest()
	req.Model = "model-a"
	r := &llm.Retrier{Sleep: (&fakeSleep{}).Sleep}
	if _, err := r.Stream(context.Background(), []*llm.Client{ca, cb}, req, nil); err != nil {
		t.Fatal(err)
	}
	if got := b.Requests()[0].Model; got != "model-b" {
		t.Errorf("fallback sent model %q, want model-b", got)
	}
}

func TestRetrierCancel(t *testing.T) {
	t.Run("during backoff", func(t *testing.T) {
		srv := llmtest.Start(t, llmtest.Rounds(llmtest.ErrorRound(500, "boom"), llmtest.TextRound("never")))
		ctx, cancel := context.WithCancel(context.Background())
		// Real sleep of an hour: only cancellation can end it.
		r := &llm.Retrier{BaseBackoff: time.Hour, OnRetry: func(llm.RetryInfo) { cancel() }}
		_, err := r.Stream(ctx, []*llm.Client{client(srv, 0)}, userRequest(), nil)
		checkError(t, err, llm.KindCancelled, 0, nil)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%v does not wrap context.Canceled", err)
		}
	})
	t.Run("mid-stream", func(t *testing.T) {
		srv := llmtest.Start(t, llmtest.Rounds(llmtest.Round{Text: "abc", TextChunk: 1, Hang: true, HangAfter: 2}))
		ctx, cancel := context.WithCancel(context.Background())
		r := &llm.Retrier{Sleep: (&fakeSleep{}).Sleep}
		_, err := r.Stream(ctx, []*llm.Client{client(srv, 0)}, userRequest(), func(llm.Delta) { cancel() })
		checkError(t, err, llm.KindCancelled, 0, nil)
		if n := len(srv.Requests()); n != 1 {
			t.Errorf("%d requests after cancel, want 1", n)
		}
	})
}
