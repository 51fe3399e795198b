package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
)

// maxFrame is the longest line the filter passes on; the SDK's own limit
// on a frame applies after it.
const maxFrame = 32 << 20

// lineFilter passes on the lines of a stdio server's stdout that are
// JSON-RPC messages and writes every other line to noise: a wrapper's
// "Loading config... done", a library's log line (JSON or not), a blank
// line. A message is a JSON object with a "jsonrpc" member, or an array
// (a batch) whose first element is one.
type lineFilter struct {
	r       *bufio.Reader
	noise   io.Writer
	pending []byte // the rest of the message line being handed out
	err     error
}

func newLineFilter(r io.Reader, noise io.Writer) *lineFilter {
	return &lineFilter{r: bufio.NewReaderSize(r, 64<<10), noise: noise}
}

// Read implements io.Reader.
func (f *lineFilter) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		line, err := f.readLine()
		f.err = err
		if isMessage(line) {
			f.pending = line
		} else if len(bytes.TrimSpace(line)) > 0 {
			_, _ = f.noise.Write(withNewline(line))
		}
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// readLine reads one line with its newline; a line longer than maxFrame
// is returned cut, and its rest is read as further lines.
func (f *lineFilter) readLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := f.r.ReadSlice('\n')
		line = append(line, chunk...)
		if err != bufio.ErrBufferFull || len(line) >= maxFrame {
			return line, err
		}
	}
}

// isMessage reports whether a line holds a JSON-RPC message (or batch).
func isMessage(line []byte) bool {
	t := bytes.TrimSpace(line)
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return false
	}
	if t[0] == '[' {
		var batch []json.RawMessage
		if json.Unmarshal(t, &batch) != nil || len(batch) == 0 {
			return false
		}
		t = batch[0]
	}
	var head struct {
		JSONRPC *string `json:"jsonrpc"`
	}
	return json.Unmarshal(t, &head) == nil && head.JSONRPC != nil
}

func withNewline(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] == '\n' {
		return b
	}
	return append(b, '\n')
}
