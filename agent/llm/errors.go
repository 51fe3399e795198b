package llm

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Kind is the class of a provider failure; it decides what the retrier and
// the agent do next.
type Kind int

// The kinds of failure. Transient, Truncated and Idle are retried with
// backoff; RateLimited waits for Retry-After; the rest return at once.
const (
	KindUnknown       Kind = iota // not classified (treated as transient)
	KindRateLimited               // 429: wait and retry
	KindTransient                 // 5xx, connection refused/reset, timeouts
	KindTruncated                 // the stream ended before finish_reason and [DONE]
	KindIdle                      // no bytes for Config.IdleTimeout
	KindAuth                      // 401/403: the key is missing or wrong
	KindContextLength             // the prompt is longer than the context window
	KindBadRequest                // any other 4xx: the server's message is kept
	KindCancelled                 // the caller's context was cancelled
	KindUnknownHost               // the base URL's host has no address: retrying cannot help
)

var kindNames = [...]string{
	KindUnknown:       "unknown",
	KindRateLimited:   "rate_limited",
	KindTransient:     "transient",
	KindTruncated:     "truncated",
	KindIdle:          "idle",
	KindAuth:          "auth",
	KindContextLength: "context_length",
	KindBadRequest:    "bad_request",
	KindCancelled:     "cancelled",
	KindUnknownHost:   "unknown_host",
}

// String returns a stable lower-case name, suitable for logs and the datalog.
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("kind(%d)", int(k))
	}
	return kindNames[k]
}

// Transient reports whether a retry with backoff may succeed.
func (k Kind) Transient() bool {
	switch k {
	case KindUnknown, KindTransient, KindTruncated, KindIdle:
		return true
	}
	return false
}

// Error is a classified provider failure. Error() is one sentence a user
// can act on; Err keeps the underlying cause for errors.Is/As.
type Error struct {
	Kind       Kind
	Status     int           // HTTP status, 0 when none was received
	RetryAfter time.Duration // from the Retry-After header, 0 when absent
	Provider   string        // Config.Name of the client that failed
	Message    string        // the server's own message, when it sent one
	Err        error         // the cause
	APIKeyEnv  string        // for KindAuth: the variable to set
	Idle       time.Duration // for KindIdle: the timeout that fired
	KeptAlive  bool          // for KindIdle: only keep-alive comments came
	NotStream  string        // the content type of a 200 that was no event stream
	URL        string        // the URL requested, "" when unknown
}

// Error returns one clear sentence saying what failed and, where it helps,
// what to do.
func (e *Error) Error() string {
	p := e.Provider
	if p == "" {
		p = "the provider"
	}
	switch e.Kind {
	case KindRateLimited:
		return fmt.Sprintf("%s rate-limited the request%s%s", p, statusNote(e.Status), detail(e.Message))
	case KindAuth:
		return authSentence(p, e)
	case KindContextLength:
		return fmt.Sprintf("the conversation is longer than %s's context window%s", p, detail(e.Message))
	case KindBadRequest:
		if e.NotStream != "" {
			return fmt.Sprintf("%s answered %s with %s and no event stream; keel needs a streaming chat-completions endpoint: %s", p, e.URL, e.NotStream, checkBaseURL)
		}
		if e.noEndpoint() {
			return fmt.Sprintf("%s has no chat-completions endpoint at %s%s%s: %s", p, e.URL, statusNote(e.Status), detail(e.Message), checkBaseURL)
		}
		return fmt.Sprintf("%s rejected the request%s%s", p, statusNote(e.Status), detail(e.Message))
	case KindUnknownHost:
		return fmt.Sprintf("the host of %s's URL %s is not known (DNS)%s: %s", p, orSome(e.URL), detail(e.cause()), checkBaseURL)
	case KindCancelled:
		return fmt.Sprintf("the request to %s was cancelled", p)
	case KindTruncated:
		return fmt.Sprintf("%s closed the stream before the answer was complete%s", p, detail(e.cause()))
	case KindIdle:
		return fmt.Sprintf("%s %s for %s, so the stream was abandoned", p, e.sentNothing(), e.Idle)
	}
	if e.Status != 0 {
		return fmt.Sprintf("%s failed%s%s", p, statusNote(e.Status), detail(e.Message))
	}
	return fmt.Sprintf("the connection to %s failed%s", p, detail(e.cause()))
}

// noEndpoint reports a 404 for the URL itself, not for a model the
// server lacks (Ollama: "model \"x\" not found").
func (e *Error) noEndpoint() bool {
	return e.Status == http.StatusNotFound && e.URL != "" && !strings.Contains(strings.ToLower(e.Message), "model")
}

// checkBaseURL is what to check when the endpoint is not where keel
// looked for it.
const checkBaseURL = "check the base URL (OPENAI_BASE_URL, or base_url in the provider's table of keel's config; it usually ends in /v1)"

func orSome(url string) string {
	if url == "" {
		return "(unknown)"
	}
	return url
}

func authSentence(p string, e *Error) string {
	what := "check the API key configured for it"
	if e.APIKeyEnv != "" {
		what = "set " + e.APIKeyEnv + " to a valid key"
	}
	return fmt.Sprintf("%s refused the API key%s: %s", p, statusNote(e.Status), what)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

func (e *Error) cause() string {
	if e.Message != "" {
		return e.Message
	}
	if e.Err != nil {
		return e.Err.Error()
	}
	return ""
}

func statusNote(status int) string {
	if status == 0 {
		return ""
	}
	return fmt.Sprintf(" (HTTP %d)", status)
}

func detail(msg string) string {
	msg = strings.TrimSpace(msg)
	if msg == "" {
		return ""
	}
	return ": " + msg
}

// Classify returns err as an *Error, classifying it when it is not one
// already. It returns nil for nil.
func Classify(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return classify(err, callFacts{})
}

// sentNothing says what an idle server sent: nothing, or only keep-alives.
func (e *Error) sentNothing() string {
	if e.KeptAlive {
		return "sent only keep-alive comments"
	}
	return "sent nothing"
}

// errNotAStream is the cause of an Error with NotStream set.
var errNotAStream = errors.New("the answer was not a server-sent event stream")
