package tools

import (
	"bytes"
	"fmt"
	"sync"
)

// capWriter keeps the head and the tail of a stream and counts what it
// dropped between them, so a long build log still shows how it started
// and how it ended.
type capWriter struct {
	mu        sync.Mutex
	headMax   int
	tailMax   int
	head      []byte
	tail      []byte
	cutBytes  int
	cutLines  int
	truncated bool
}

func newCapWriter(max int) *capWriter {
	if max <= 0 {
		max = cmdDefaultOutput
	}
	return &capWriter{headMax: max / 4, tailMax: max - max/4}
}

// Write never fails: output beyond the cap is counted, not kept.
func (c *capWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(p)
	if room := c.headMax - len(c.head); room > 0 {
		k := min(room, len(p))
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	c.tail = append(c.tail, p...)
	if over := len(c.tail) - c.tailMax; over > 0 && len(c.tail) > 2*c.tailMax {
		c.drop(over)
	}
	return n, nil
}

func (c *capWriter) drop(k int) {
	c.cutBytes += k
	c.cutLines += bytes.Count(c.tail[:k], []byte("\n"))
	c.tail = append(c.tail[:0], c.tail[k:]...)
	c.truncated = true
}

// String is the kept output with a marker where bytes were cut.
func (c *capWriter) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if over := len(c.tail) - c.tailMax; over > 0 {
		c.drop(over)
	}
	if !c.truncated {
		return string(c.head) + string(c.tail)
	}
	return fmt.Sprintf("%s\n[... %s bytes (%s lines) cut ...]\n%s", c.head, commas(c.cutBytes), commas(c.cutLines), c.tail)
}
