package mcp

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioTransport runs a server's command and speaks newline-delimited
// JSON-RPC over its stdin and stdout, as the SDK's CommandTransport does,
// but with a lineFilter in front of stdout: a wrapper script's banner or
// a log line on stdout is kept for /mcp and skipped instead of ending the
// session with a decode error.
type stdioTransport struct {
	cmd       *exec.Cmd
	noise     io.Writer // where skipped stdout lines go
	terminate time.Duration
}

// Connect starts the command and connects to it over its pipes.
func (t *stdioTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	stdout, err := t.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdin, err := t.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := t.cmd.Start(); err != nil {
		return nil, err
	}
	in := &stdinCloser{WriteCloser: stdin, cmd: t.cmd, wait: t.terminate}
	out := io.NopCloser(newLineFilter(stdout, t.noise)) // the session ends by closing stdin
	return (&sdk.IOTransport{Reader: out, Writer: in}).Connect(ctx)
}

// stdinCloser is the server's stdin; closing it ends the server as the
// specification asks: stdin closed, then SIGTERM if it lingers, then
// SIGKILL. Close returns how the process exited.
type stdinCloser struct {
	io.WriteCloser
	cmd  *exec.Cmd
	wait time.Duration
}

// Close implements io.Closer.
func (s *stdinCloser) Close() error {
	if err := s.WriteCloser.Close(); err != nil {
		return fmt.Errorf("closing stdin: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- s.cmd.Wait() }()
	waitExit := func() (error, bool) {
		select {
		case err := <-exited:
			return err, true
		case <-time.After(s.wait):
			return nil, false
		}
	}
	if err, ok := waitExit(); ok {
		return err
	}
	if s.cmd.Process.Signal(syscall.SIGTERM) == nil {
		if err, ok := waitExit(); ok {
			return err
		}
	}
	_ = s.cmd.Process.Kill()
	if err, ok := waitExit(); ok {
		return err
	}
	return fmt.Errorf("the server did not exit after SIGKILL")
}
