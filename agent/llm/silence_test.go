package llm_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/agent/llmtest"
)

// silences records what a call reported of its server's silence.
type silences struct {
	mu   sync.Mutex
	got  []llm.Silence
	seen chan struct{} // closed at the first report of a silence
	once sync.Once
}

func newSilences() *silences { return &silences{seen: make(chan struct{})} }

func (s *silences) add(q llm.Silence) {
	s.mu.Lock()
	s.got = append(s.got, q)
	s.mu.Unlock()
	if q.Quiet > 0 {
		s.once.Do(func() { close(s.seen) })
	}
}

func (s *silences) all() []llm.Silence {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]llm.Silence(nil), s.got...)
}

// A server that says nothing is named while keel waits, and again when it
// speaks; the answer is not lost. The server answers only once the
// silence was reported, so no timing is assumed.
func TestSilenceIsReportedThenCleared(t *testing.T) {
	sil := newSilences()
	srv := llmtest.Start(t, llmtest.Script{Handler: func(llmtest.RecordedRequest, int) llmtest.Round {
		select {
		case <-sil.seen:
		case <-time.After(time.Minute): // hang guard
		}
		return llmtest.TextRound("done")
	}})
	c := llm.New(llm.Config{BaseURL: srv.URL(), Model: "m", Name: "slowpoke", IdleTimeout: 10 * time.Minute, SilenceNotice: 20 * time.Millisecond})
	req := userRequest()
	req.OnSilence = sil.add
	resp, err := c.Stream(context.Background(), req, nil)
	if err != nil || resp.Content != "done" {
		t.Fatalf("Stream = %q, %v", resp.Content, err)
	}
	got := sil.all()
	if len(got) != 2 {
		t.Fatalf("silences %+v, want a report and its end", got)
	}
	if got[0].Provider != "slowpoke" || got[0].Quiet < 20*time.Millisecond || got[0].Timeout != 10*time.Minute {
		t.Errorf("first report %+v, want slowpoke quiet ≥ 20ms, timeout 10m", got[0])
	}
	if got[1].Quiet != 0 || got[1].Provider != "slowpoke" {
		t.Errorf("second report %+v, want the end of the silence", got[1])
	}
}

// A server that streams steadily is never reported, and neither is one
// when no one asked.
func TestSilenceMustNotFire(t *testing.T) {
	sil := newSilences()
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.Round{Text: "a steady answer in small pieces", TextChunk: 2}))
	c := llm.New(llm.Config{BaseURL: srv.URL(), Model: "m", IdleTimeout: 10 * time.Minute})
	req := userRequest()
	req.OnSilence = sil.add
	if _, err := c.Stream(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	if got := sil.all(); len(got) != 0 {
		t.Errorf("silences %+v for a server that answered at once (default notice 10 s)", got)
	}
}

// A server that hangs is reported before the idle timeout abandons it.
func TestSilenceBeforeIdle(t *testing.T) {
	sil := newSilences()
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.Round{Text: "abc", TextChunk: 1, Hang: true, HangAfter: 1}))
	c := llm.New(llm.Config{BaseURL: srv.URL(), Model: "m", Name: "hung", IdleTimeout: 200 * time.Millisecond, SilenceNotice: 10 * time.Millisecond})
	req := userRequest()
	req.OnSilence = sil.add
	_, err := c.Stream(context.Background(), req, nil)
	if e := llm.Classify(err); e == nil || e.Kind != llm.KindIdle {
		t.Fatalf("error %v, want idle", err)
	}
	got := sil.all()
	if len(got) == 0 || got[0].Quiet <= 0 || got[0].Provider != "hung" || got[0].Timeout != 200*time.Millisecond {
		t.Errorf("silences %+v, want hung reported before the timeout", got)
	}
}
