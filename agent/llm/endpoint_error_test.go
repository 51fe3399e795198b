package llm_test

import (
	"context"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/agent/llmtest"
)

// A wrong base path answers 404: the error names the URL keel tried and
// the setting to check (issue 32: it said "HTTP 404: 404 page not found").
func TestNotFoundNamesTheURLAndTheSetting(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("never")))
	c := llm.New(llm.Config{Name: "openai", BaseURL: srv.URL() + "/wrong", Model: "m"})
	_, err := c.Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}, nil)
	msg := err.Error()
	if !strings.Contains(msg, srv.URL()+"/wrong/chat/completions") || !strings.Contains(msg, "OPENAI_BASE_URL") || !strings.Contains(msg, "HTTP 404") {
		t.Fatalf("the 404 says %q", msg)
	}
}

// unknownHost fails every request as a resolver does for a host that
// does not exist, without a DNS query leaving the machine.
type unknownHost struct{ calls atomic.Int32 }

func (u *unknownHost) RoundTrip(r *http.Request) (*http.Response, error) {
	u.calls.Add(1)
	return nil, &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: r.URL.Hostname(), IsNotFound: true}}
}

// An unknown host is a mistake in the URL, not a passing fault: it is not
// retried, and the error says what to check (issue 32: three retries, 5 s).
func TestUnknownHostIsNotRetried(t *testing.T) {
	rt := &unknownHost{}
	c := llm.New(llm.Config{Name: "openai", BaseURL: "http://api.example-typo.test/v1", Model: "m", HTTPClient: &http.Client{Transport: rt}})
	r := &llm.Retrier{MaxTransientRetries: 3, BaseBackoff: time.Hour, Sleep: func(context.Context, time.Duration) error {
		t.Fatal("an unknown host must not be retried")
		return nil
	}}
	_, err := r.Stream(context.Background(), []*llm.Client{c}, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}, nil)
	e := llm.Classify(err)
	if rt.calls.Load() != 1 || e.Kind != llm.KindUnknownHost || e.Kind.Transient() {
		t.Fatalf("%d calls, kind %v", rt.calls.Load(), e.Kind)
	}
	if msg := err.Error(); !strings.Contains(msg, "api.example-typo.test") || !strings.Contains(msg, "OPENAI_BASE_URL") {
		t.Fatalf("the error says %q", msg)
	}
}
