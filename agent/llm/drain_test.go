package llm

import (
	"context"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
)

// TestDrainGivesUpOnAServerThatNeverEnds: a body still open drainWait
// after [DONE] marks the client, and its later bodies are closed at once
// instead of costing the wait every round; a server that ends its bodies
// leaves the client unmarked.
func TestDrainGivesUpOnAServerThatNeverEnds(t *testing.T) {
	for _, tc := range []struct {
		end     time.Duration
		endless bool
	}{{0, false}, {time.Minute, true}} {
		round := llmtest.Round{Text: "ok", EndDelay: tc.end}
		srv := llmtest.NewServer(llmtest.Script{Rounds: []llmtest.Round{round, round}})
		c := New(Config{BaseURL: srv.URL(), APIKey: "k", Model: "m", Name: "fake"})
		req := Request{Messages: []Message{{Role: RoleUser, Content: "hi"}}}
		for i := range 2 {
			if _, err := c.Stream(context.Background(), req, nil); err != nil {
				t.Fatalf("end after %v, stream %d: %v", tc.end, i, err)
			}
		}
		if got := c.endless.Load(); got != tc.endless {
			t.Errorf("end after %v: the client is marked endless = %v, want %v", tc.end, got, tc.endless)
		}
		srv.Close()
	}
}
