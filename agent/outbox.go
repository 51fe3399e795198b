package agent

import (
	"strings"
	"sync"
)

// outbox is the buffered channel the agent owns and consumers drain. Text
// and reasoning deltas are sent without blocking: when the channel is full
// they are merged into a pending delta that goes out before the next event,
// so a slow consumer sees fewer, larger deltas and the agent never waits on
// rendering. Every other event is sent blocking, so it is never dropped,
// unless the outbox is closed (nobody will read again).
type outbox struct {
	ch     chan Event
	done   chan struct{}
	mu     sync.Mutex // serialises producers so pending deltas keep their order
	text   strings.Builder
	reason strings.Builder
	once   sync.Once
	// observe sees each event first (Options.Observer); never nil.
	observe func(Event)
}

func newOutbox(size int, observe func(Event)) *outbox {
	if observe == nil {
		observe = func(Event) {}
	}
	return &outbox{ch: make(chan Event, size), done: make(chan struct{}), observe: observe}
}

// delta offers a text or reasoning delta without blocking.
func (o *outbox) delta(ev Event) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.observe(ev)
	switch d := ev.(type) {
	case TextDelta:
		o.text.WriteString(d.Text)
	case ReasoningDelta:
		o.reason.WriteString(d.Text)
	default:
		// Progress events may be dropped, but never jump ahead of text.
		if o.flushPending(false) && o.text.Len() == 0 && o.reason.Len() == 0 {
			o.trySend(ev)
		}
		return
	}
	o.flushPending(false)
}

// send delivers ev after any pending deltas, blocking until there is room.
func (o *outbox) send(ev Event) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.observe(ev) // even once closed: an observer still hears how the task ended
	if !o.flushPending(true) {
		return
	}
	o.put(ev)
}

// flushPending sends pending deltas; with block false it gives up (keeping
// them pending) when the channel is full. It reports false when closed.
func (o *outbox) flushPending(block bool) bool {
	if o.reason.Len() > 0 {
		if !o.offer(ReasoningDelta{Text: o.reason.String()}, block) {
			return o.open()
		}
		o.reason.Reset()
	}
	if o.text.Len() > 0 {
		if !o.offer(TextDelta{Text: o.text.String()}, block) {
			return o.open()
		}
		o.text.Reset()
	}
	return true
}

func (o *outbox) offer(ev Event, block bool) bool {
	if block {
		return o.put(ev)
	}
	return o.trySend(ev)
}

func (o *outbox) trySend(ev Event) bool {
	select {
	case o.ch <- ev:
		return true
	default:
		return false
	}
}

func (o *outbox) put(ev Event) bool {
	select {
	case o.ch <- ev:
		return true
	case <-o.done:
		return false
	}
}

func (o *outbox) open() bool {
	select {
	case <-o.done:
		return false
	default:
		return true
	}
}

// close stops blocking sends; events sent afterwards are discarded.
func (o *outbox) close() { o.once.Do(func() { close(o.done) }) }
