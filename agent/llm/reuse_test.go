package llm_test

import (
	"context"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/agent/llmtest"
)

// TestStreamsReuseTheConnection: a server that ends its body a moment
// after [DONE] (as real ones do) must still get every request on one
// connection. Closing the body before its end makes net/http drop the
// connection, and each round would dial (and handshake TLS) again.
func TestStreamsReuseTheConnection(t *testing.T) {
	for _, end := range []time.Duration{0, 5 * time.Millisecond} {
		round := llmtest.Round{ToolCalls: []llmtest.Call{readCall}, EndDelay: end}
		srv := llmtest.NewServer(llmtest.Script{Rounds: []llmtest.Round{round, round, round, round, round}})
		// The end comes 5 ms after [DONE] by the server's clock; a busy
		// machine can make that any length, so the client waits long
		// enough here: what is tested is that it reads to the end.
		c := llm.New(llm.Config{BaseURL: srv.URL(), Model: "fake-model", Name: "fake", DrainWait: time.Minute})
		for i := range 5 {
			if _, err := c.Stream(context.Background(), userRequest(), nil); err != nil {
				t.Fatalf("end after %v, stream %d: %v", end, i, err)
			}
		}
		reqs := srv.Requests()
		for _, r := range reqs[1:] {
			if r.RemoteAddr != reqs[0].RemoteAddr {
				t.Errorf("end after %v: request %d came from %s, the first from %s: the connection was not reused",
					end, r.N, r.RemoteAddr, reqs[0].RemoteAddr)
			}
		}
		srv.Close()
	}
}

// TestStreamDoesNotWaitForABodyThatNeverEnds: after [DONE] the rest of the
// body is read for a moment only; a server that keeps it open does not
// hold the answer up.
func TestStreamDoesNotWaitForABodyThatNeverEnds(t *testing.T) {
	srv := llmtest.NewServer(llmtest.Script{Rounds: []llmtest.Round{{Text: "done", EndDelay: time.Minute}}})
	defer srv.Close()
	c := client(srv, 0)
	done := make(chan error, 1)
	go func() {
		resp, err := c.Stream(context.Background(), userRequest(), nil)
		if err == nil && resp.Content != "done" {
			t.Errorf("content %q", resp.Content)
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Stream waited for the end of a body the server held open")
	}
}
