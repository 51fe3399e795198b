package llm

import (
	"io"
	"time"
)

// After "data: [DONE]" a server ends the body (the chunked encoding's
// terminator, a few bytes, usually already on its way), and net/http
// reuses the connection only for a body read to its end: closed before,
// the next request dials again (and, to a real provider, handshakes TLS
// again). Some servers never end it. So the rest of a body is read for up
// to drainWait (Config.DrainWait) and drainMax bytes; a client whose
// server let that wait run out once closes its later bodies at once.
const (
	drainWait = 50 * time.Millisecond
	drainMax  = 4 << 10
)

// closeBody closes a stream's body, first reading what is left of one
// that ended with [DONE].
func (c *Client) closeBody(body io.ReadCloser, done bool) {
	if done && !c.endless.Load() {
		wait := c.cfg.DrainWait
		if wait <= 0 {
			wait = drainWait
		}
		stop := time.AfterFunc(wait, func() { body.Close() }) // a body that never ends
		_, _ = io.CopyN(io.Discard, body, drainMax)
		if !stop.Stop() {
			c.endless.Store(true)
		}
	}
	body.Close()
}
