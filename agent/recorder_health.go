package agent

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// DatalogHealth reports the datalog failing to save (OK false: the
// records wait in memory and keel retries; file changes wait for it) and
// saving again (OK true: everything kept was saved). The TUI shows a
// banner while it fails; headless says so on stderr.
type DatalogHealth struct {
	OK   bool
	Text string
}

func (DatalogHealth) event() {}

// catchUpWait is how long a task's end waits for records a failure left
// in memory to be saved before it says they are not.
const catchUpWait = 3 * time.Second

// unsaved says what of the task the datalog has not saved ("" when all
// is): it first lets the writer retry for up to catchUpWait, so a disk
// freed meanwhile loses nothing.
func (r *Recorder) unsaved() string {
	if r == nil {
		return ""
	}
	if !r.usable() {
		if r.openErr != nil {
			return fmt.Sprintf("keel's datalog recorded nothing of this task (%v)", r.openErr)
		}
		return ""
	}
	r.settle()
	ctx, cancel := context.WithTimeout(context.Background(), catchUpWait)
	defer cancel()
	if err := r.db.CatchUp(ctx); err != nil {
		return fmt.Sprintf("keel's datalog could not save this task's records (%v); keel keeps them in memory and retries until it exits", err)
	}
	return ""
}

// healthRelay forwards the datalog's outage changes to the session as
// DatalogHealth events, from its own goroutine: the writer that tells of
// them must never wait on the event consumer.
type healthRelay struct {
	mu     sync.Mutex
	latest *DatalogHealth
	kick   chan struct{}
}

// watchHealth starts relaying once the datalog is open; it stops when
// done is closed (the session's outbox).
func (r *Recorder) watchHealth(send func(Event), done <-chan struct{}) {
	if r == nil {
		return
	}
	h := &healthRelay{kick: make(chan struct{}, 1)}
	go func() {
		if !r.usable() {
			return
		}
		r.db.Watch(func(err error) {
			ev := &DatalogHealth{OK: err == nil, Text: "keel's datalog is saving again: every record kept in memory is saved"}
			if err != nil {
				ev.Text = fmt.Sprintf("keel's datalog cannot save (%v): file changes wait for it, and keel retries", err)
			}
			h.mu.Lock()
			h.latest = ev
			h.mu.Unlock()
			select {
			case h.kick <- struct{}{}:
			default:
			}
		})
		for {
			select {
			case <-done:
				return
			case <-h.kick:
			}
			h.mu.Lock()
			ev := h.latest
			h.mu.Unlock()
			send(*ev)
		}
	}()
}
