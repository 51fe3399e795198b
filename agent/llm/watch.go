package llm

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync/atomic"
	"time"
)

// watch observes one call at the HTTP level, where go-openai cannot help:
// it keeps the response headers (for Retry-After), aborts the call when no
// byte arrives for the idle timeout, and notices the "data: [DONE]" line so
// a clean end can be told from a truncated one.
type watch struct {
	idle    time.Duration
	abort   context.CancelFunc
	start   time.Time
	last    atomic.Int64 // nanoseconds after start of the latest byte
	idled   atomic.Bool
	stopped atomic.Bool
	timer   *time.Timer
	header  http.Header // set once on the calling goroutine
	done    doneDetector
	endless *atomic.Bool // the client's: a body did not end after [DONE]
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

// transport wraps the real RoundTripper for one call.
type watchTransport struct {
	base http.RoundTripper
	w    *watch
	body wireBody // replaces the body go-openai encoded (see encode.go)
}

// RoundTrip sends the request with our body, records the headers and
// wraps the response body.
func (t *watchTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.w.arm()
	if t.body.Len() > 0 {
		req = req.Clone(req.Context()) // a RoundTripper must not modify its argument
		body := t.body
		req.Body = body.Reader()
		req.GetBody = func() (io.ReadCloser, error) { return body.Reader(), nil }
		req.ContentLength = int64(body.Len())
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	t.w.touch()
	t.w.header = resp.Header
	resp.Body = &watchBody{rc: resp.Body, w: t.w}
	return resp, nil
}

type watchBody struct {
	rc io.ReadCloser
	w  *watch
}

func (b *watchBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 {
		b.w.touch()
		b.w.done.feed(p[:n])
	}
	return n, err
}

// The end of a stream after "data: [DONE]" (the chunked encoding's
// terminator, a few bytes, usually already on its way) is read before
// the body is closed, for up to drainWait and drainMax bytes: a body
// closed before its end makes net/http drop the connection, and the next
// request dial again (and, to a real provider, handshake TLS again).
const (
	drainWait = 50 * time.Millisecond
	drainMax  = 4 << 10
)

// Close reads the rest of a stream that ended with [DONE], then closes;
// once a body has not ended within drainWait, the client's later bodies
// are closed at once.
func (b *watchBody) Close() error {
	if b.w.done.seen && (b.w.endless == nil || !b.w.endless.Load()) {
		stop := time.AfterFunc(drainWait, func() { b.rc.Close() }) // a server that never ends the body
		_, _ = io.CopyN(io.Discard, b.rc, drainMax)
		if !stop.Stop() && b.w.endless != nil {
			b.w.endless.Store(true)
		}
	}
	return b.rc.Close()
}

// doneDetector finds a line "data: [DONE]" in a byte stream fed in pieces.
// JSON strings cannot hold a raw newline, so matching whole lines cannot be
// fooled by a model that writes "[DONE]" in its text.
type doneDetector struct {
	line     [24]byte
	n        int
	overflow bool
	seen     bool
}

func (d *doneDetector) feed(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		seg := p
		if i >= 0 {
			seg = p[:i]
		}
		if d.n+len(seg) > len(d.line) {
			d.overflow = true
		} else {
			d.n += copy(d.line[d.n:], seg)
		}
		if i < 0 {
			return
		}
		if !d.overflow && isDoneLine(d.line[:d.n]) {
			d.seen = true
		}
		d.n, d.overflow = 0, false
		p = p[i+1:]
	}
}

func isDoneLine(l []byte) bool {
	l = bytes.TrimSpace(l)
	rest, ok := bytes.CutPrefix(l, []byte("data:"))
	return ok && string(bytes.TrimSpace(rest)) == "[DONE]"
}
