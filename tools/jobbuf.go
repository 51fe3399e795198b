package tools

import (
	"fmt"
	"sync"
)

// jobBuffer keeps the last max bytes a background job printed: a ring, so
// a job printing without end costs a fixed amount of memory. It counts
// every byte written, so a reader that fell behind learns how much it
// missed. Writes never block and never fail.
type jobBuffer struct {
	mu      sync.Mutex
	ring    []byte // len max once full
	start   int    // index of the oldest kept byte once full
	written int64  // bytes ever written
	wake    chan struct{}
}

func newJobBuffer(max int) *jobBuffer {
	return &jobBuffer{ring: make([]byte, 0, max), wake: make(chan struct{}, 1)}
}

// Write keeps p's last bytes within the bound and wakes a waiting reader.
func (b *jobBuffer) Write(p []byte) (int, error) {
	n := len(p)
	b.mu.Lock()
	b.written += int64(n)
	max := cap(b.ring)
	if len(p) >= max {
		b.ring = append(b.ring[:0], p[len(p)-max:]...)
		b.start = 0
	} else if room := max - len(b.ring); room > 0 {
		k := min(room, len(p))
		b.ring = append(b.ring, p[:k]...)
		p = p[k:]
	}
	for len(p) > 0 { // full: overwrite the oldest bytes
		k := copy(b.ring[b.start:], p)
		p = p[k:]
		b.start = (b.start + k) % max
	}
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default:
	}
	return n, nil
}

// since returns what was written from offset on that is still kept, the
// bytes lost before it (written but no longer kept), and the new offset.
func (b *jobBuffer) since(offset int64) (text []byte, lost int64, end int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	kept := int64(len(b.ring))
	oldest := b.written - kept
	if offset < oldest {
		lost, offset = oldest-offset, oldest
	}
	want := int(b.written - offset)
	all := b.ordered()
	return all[len(all)-want:], lost, b.written
}

// ordered is the kept bytes oldest first (a copy). Call with mu held.
func (b *jobBuffer) ordered() []byte {
	out := make([]byte, 0, len(b.ring))
	out = append(out, b.ring[b.start:]...)
	return append(out, b.ring[:b.start]...)
}

// total is how many bytes were ever written.
func (b *jobBuffer) total() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.written
}

// lostNote says how much output a reader missed.
func lostNote(lost int64, max int) string {
	return fmt.Sprintf("[... %d bytes of output were not kept (a job keeps its last %d KiB) ...]\n", lost, max>>10)
}
