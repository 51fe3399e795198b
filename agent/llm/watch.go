package llm

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// watch observes one call at the HTTP level: it keeps the response
// headers (for Retry-After) and aborts the call when no byte arrives for
// the idle timeout. Past a shorter notice it tells onSilence, so a user
// sees which server keel waits for instead of a silent pause.
type watch struct {
	idle    time.Duration
	notice  time.Duration // silence worth telling; 0 with no onSilence
	silent  func(Silence) // nil: tell no one
	silMu   sync.Mutex    // orders the silence reports
	noticed atomic.Bool   // a silence was reported and bytes have not flowed since
	abort   context.CancelFunc
	start   time.Time
	last    atomic.Int64 // nanoseconds after start of the latest byte
	idled   atomic.Bool
	stopped atomic.Bool
	// keptAlive: keep-alive comments came while no answer did, so a
	// timeout names them rather than saying nothing came.
	keptAlive atomic.Bool
	timer     *time.Timer
	header    http.Header // set once on the calling goroutine
}

func newWatch(idle, notice time.Duration, abort context.CancelFunc, onSilence func(Silence)) *watch {
	w := &watch{idle: idle, abort: abort, start: time.Now()}
	if onSilence != nil {
		if notice <= 0 {
			notice = silenceNotice(idle)
		}
		w.notice, w.silent = min(notice, idle), onSilence
	}
	return w
}

// silenceNotice is how long a server may be quiet before the user is told
// by default: a quarter of the idle timeout, at most 10 s (a model
// thinking before its first token is often that slow: news, not alarm).
func silenceNotice(idle time.Duration) time.Duration {
	return min(idle/4, 10*time.Second)
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
	t.Reset(w.next(0))
}

func (w *watch) fire() {
	if w.stopped.Load() {
		return
	}
	quiet := time.Since(w.start) - time.Duration(w.last.Load())
	if w.silent != nil && quiet >= w.notice { // first, even when the timer ran late
		w.silMu.Lock()
		if !w.noticed.Load() && !w.stopped.Load() {
			w.noticed.Store(true)
			w.silent(Silence{Quiet: quiet, Timeout: w.idle})
		}
		w.silMu.Unlock()
	}
	if quiet >= w.idle {
		w.idled.Store(true)
		w.abort()
		return
	}
	w.timer.Reset(w.next(quiet))
}

// next is how long after a check that found quiet the next one is due:
// at the notice while it is unreported, else at the idle timeout.
func (w *watch) next(quiet time.Duration) time.Duration {
	if w.silent != nil && quiet < w.notice && !w.noticed.Load() {
		return w.notice - quiet
	}
	return w.idle - quiet
}

func (w *watch) touch() {
	w.last.Store(int64(time.Since(w.start)))
	if w.noticed.Load() { // rare: only after a reported silence
		w.silMu.Lock()
		if w.noticed.Load() {
			w.noticed.Store(false)
			w.silent(Silence{Timeout: w.idle})
		}
		w.silMu.Unlock()
	}
}

// stop releases the timer; call it when the call is over.
func (w *watch) stop() {
	w.silMu.Lock()
	w.stopped.Store(true)
	w.silMu.Unlock()
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

// watchBody counts the bytes of a server-sent event stream as signs of
// life, except keep-alive comments (": ping") and blank lines: a server
// that sends only those for the idle timeout is not answering, and a
// proxy's keep-alives must not hold keel forever.
type watchBody struct {
	io.ReadCloser
	w         *watch
	midLine   bool // the last byte read was not a line's end
	inComment bool // the line being read is a comment
}

func (b *watchBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		if b.progress(p[:n]) {
			b.w.touch()
		} else {
			b.w.keptAlive.Store(true)
		}
	}
	return n, err
}

// progress reports whether buf holds a byte of a line that is neither a
// comment nor blank, keeping the line state across reads.
func (b *watchBody) progress(buf []byte) bool {
	found := false
	for len(buf) > 0 {
		if !b.midLine {
			switch buf[0] {
			case '\n', '\r':
				buf = buf[1:]
				continue
			case ':':
				b.inComment = true
			default:
				b.inComment = false
			}
			b.midLine = true
		}
		end := bytes.IndexByte(buf, '\n')
		if !b.inComment {
			found = true
		}
		if end < 0 {
			return found
		}
		b.midLine, buf = false, buf[end+1:]
	}
	return found
}
