package llm

import (
	"context"
	"io"
	"net/http"
	"sync/atomic"
	"time"
)

// watch observes one call at the HTTP level: it keeps the response
// headers (for Retry-After) and aborts the call when no byte arrives for
// the idle timeout.
type watch struct {
	idle    time.Duration
	abort   context.CancelFunc
	start   time.Time
	last    atomic.Int64 // nanoseconds after start of the latest byte
	idled   atomic.Bool
	stopped atomic.Bool
	timer   *time.Timer
	header  http.Header // set once on the calling goroutine
}

func newWatch(idle time.Duration, abort context.CancelFunc) *watch {
	return &watch{idle: idle, abort: abort, start: time.Now()}
}

// arm starts the idle timer. The timer re-arms itself for the remaining time
// instead of being reset on every read, so reads stay cheap and nothing polls.
func (w *watch) arm() {
	if w.idle <= 0 || w.timer != nil {
		return
	}
	w.touch()
	// Create stopped, then start: fire must never see a nil timer.
	t := time.AfterFunc(time.Hour, w.fire)
	t.Stop()
	w.timer = t
	t.Reset(w.idle)
}

func (w *watch) fire() {
	if w.stopped.Load() {
		return
	}
	quiet := time.Since(w.start) - time.Duration(w.last.Load())
	if quiet >= w.idle {
		w.idled.Store(true)
		w.abort()
		return
	}
	w.timer.Reset(w.idle - quiet)
}

func (w *watch) touch() { w.last.Store(int64(time.Since(w.start))) }

// stop releases the timer; call it when the call is over.
func (w *watch) stop() {
	w.stopped.Store(true)
	if w.timer != nil {
		w.timer.Stop()
	}
}

// watchTransport wraps the real RoundTripper for one call.
type watchTransport struct {
	base http.RoundTripper
	w    *watch
}

// RoundTrip sends the request, records the headers and wraps the
// response body so every read counts as a sign of life.
func (t *watchTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.w.arm()
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	t.w.touch()
	t.w.header = resp.Header
	resp.Body = &watchBody{ReadCloser: resp.Body, w: t.w}
	return resp, nil
}

type watchBody struct {
	io.ReadCloser
	w *watch
}

func (b *watchBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.w.touch()
	}
	return n, err
}
