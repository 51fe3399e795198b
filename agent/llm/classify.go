package llm

import (
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// callFacts is what one call observed besides the error itself: the
// transport sees the headers and the idle timer.
type callFacts struct {
	provider    string
	apiKeyEnv   string
	cancelled   bool // the caller's context is done
	idle        bool // the idle timer aborted the call
	idleTimeout time.Duration
	keptAlive   bool        // keep-alive comments came during the wait
	header      http.Header // response headers, nil when none arrived
	now         time.Time   // for Retry-After HTTP dates
	url         string      // the URL requested
}

// classify turns any error from a call into an *Error.
func classify(err error, f callFacts) *Error {
	e := &Error{Kind: KindTransient, Provider: f.provider, Err: err, APIKeyEnv: f.apiKeyEnv, URL: f.url}
	switch {
	case f.cancelled:
		e.Kind = KindCancelled
		return e
	case f.idle:
		e.Kind, e.Idle, e.KeptAlive = KindIdle, f.idleTimeout, f.keptAlive
		return e
	}
	if status, msg, code, ok := apiFailure(err); ok {
		e.Status, e.Message = status, msg
		e.Kind = kindOf(status, msg, code)
		if e.Kind == KindRateLimited || e.Kind.Transient() {
			// A 503 (or any status worth retrying) that says when to come
			// back is believed, as a 429 is.
			e.RetryAfter = retryAfter(f.header, f.now)
		}
		return e
	}
	e.Kind = kindOfNetError(err)
	return e
}

// apiFailure extracts status, message and error code from a failure a
// server described (an HTTP error, or an error event inside the stream).
func apiFailure(err error) (status int, msg, code string, ok bool) {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae.Status, ae.Message, ae.Code + " " + ae.Type, true
	}
	return 0, "", "", false
}

// kindOf classifies an HTTP failure by status and message.
func kindOf(status int, msg, code string) Kind {
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return KindAuth
	case status == http.StatusTooManyRequests:
		if strings.Contains(code, "insufficient_quota") {
			return KindBadRequest // waiting does not refill a quota
		}
		return KindRateLimited
	case status == http.StatusRequestTimeout || status >= 500:
		return KindTransient
	case isContextLength(msg) || isContextLength(code):
		return KindContextLength
	case status >= 400:
		return KindBadRequest
	}
	return KindTransient // an in-stream error without a status
}

// kindOfNetError classifies transport failures: a body cut short is a
// truncated stream; a host the resolver says does not exist is not
// retried (a typo in the URL stays one); refused/reset connections,
// timeouts and a resolver that could not answer are transient. A name
// that resolves to no address keel can dial is as unknown.
func kindOfNetError(err error) Kind {
	var dns *net.DNSError
	var addr *net.AddrError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return KindTruncated
	case errors.As(err, &dns) && dns.IsNotFound:
		return KindUnknownHost
	case errors.As(err, &addr) && strings.Contains(addr.Err, "no suitable address"):
		return KindUnknownHost // resolved to nothing keel can dial (a .onion name, say)
	}
	return KindTransient
}

// retryAfter parses Retry-After as delta-seconds or an HTTP date.
func retryAfter(h http.Header, now time.Time) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		return time.Duration(secs * float64(time.Second))
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0
	}
	if now.IsZero() {
		now = time.Now()
	}
	if d := t.Sub(now); d > 0 {
		return d
	}
	return 0
}
