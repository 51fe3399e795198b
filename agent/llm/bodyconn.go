package llm

import (
	"io"
	"net"
)

// bodyConn is a TCP connection that writes keel's request bodies in one
// piece. net/http sends a body of known length as io.Copy from an
// io.LimitedReader, which hides the body's WriteTo: the copy went through
// a new 32 KiB buffer, a write(2) each, ten for a 300 KB request late in a
// session. A local model server (Ollama, vLLM, LM Studio) is reached over
// plain TCP; through TLS the body goes by record anyway.
type bodyConn struct {
	*net.TCPConn
}

// ReadFrom writes a whole bodyReader under its limit with the body's own
// WriteTo; anything else goes the TCP connection's way.
func (c *bodyConn) ReadFrom(r io.Reader) (int64, error) {
	if lr, ok := r.(*io.LimitedReader); ok {
		if br, ok := lr.R.(*bodyReader); ok && int64(br.Len()) <= lr.N {
			n, err := br.WriteTo(c.TCPConn)
			lr.N -= n
			return n, err
		}
	}
	return c.TCPConn.ReadFrom(r)
}
