package llm

import (
	"bytes"
	"io"
	"net"
	"strings"
	"testing"
)

// tcpPair returns the two ends of a loopback TCP connection, the dialled
// one as a bodyConn.
func tcpPair(t *testing.T) (*bodyConn, net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server := <-accepted
	t.Cleanup(func() { c.Close(); server.Close() })
	return &bodyConn{TCPConn: c.(*net.TCPConn)}, server
}

// A request body arrives whole and exact however net/http hands it over:
// under its limit (the one-piece path), cut by a smaller limit, or as
// another reader (the TCP connection's own path).
func TestBodyConnWritesWhatItIsGiven(t *testing.T) {
	head, tail := []byte(strings.Repeat("h", 300<<10)), []byte(`],"stream":true}`)
	body := wireBody{head: head, tail: tail}
	whole := append(bytes.Clone(head), tail...)
	cases := []struct {
		name string
		r    io.Reader
		want []byte
	}{
		{"the body under its length", io.LimitReader(body.Reader(), int64(body.Len())), whole},
		{"a limit past the body", io.LimitReader(body.Reader(), int64(body.Len())+10), whole},
		{"a limit short of the body", io.LimitReader(body.Reader(), 1000), whole[:1000]},
		{"another reader", bytes.NewReader(whole), whole},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			conn, server := tcpPair(t)
			got := make(chan []byte)
			go func() {
				b, _ := io.ReadAll(server)
				got <- b
			}()
			n, err := conn.ReadFrom(c.r)
			conn.CloseWrite()
			if err != nil || n != int64(len(c.want)) {
				t.Fatalf("ReadFrom = %d, %v; want %d", n, err, len(c.want))
			}
			if b := <-got; !bytes.Equal(b, c.want) {
				t.Errorf("the server read %d bytes, not the %d sent", len(b), len(c.want))
			}
		})
	}
}
