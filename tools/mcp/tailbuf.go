package mcp

import (
	"strings"
	"sync"
)

// tailBuffer keeps the last max bytes written to it: a server's stderr,
// shown by /mcp and keel mcp list, never on the terminal while the TUI
// runs. It is safe for concurrent use.
type tailBuffer struct {
	mu      sync.Mutex
	max     int
	buf     []byte
	dropped int // bytes cut from the front
}

func newTailBuffer(max int) *tailBuffer { return &tailBuffer{max: max} }

// Write never fails: what exceeds the cap is dropped from the front.
func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.max; over > 0 {
		b.dropped += over
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

// Tail returns the last n lines kept (all when n <= 0), without a final
// newline; a first line cut by the cap is dropped.
func (b *tailBuffer) Tail(n int) string {
	b.mu.Lock()
	s := string(b.buf)
	cut := b.dropped > 0
	b.mu.Unlock()
	if cut {
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		}
	}
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if n > 0 && len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
