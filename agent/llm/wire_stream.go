package llm

import (
	"bufio"
	"bytes"
	"io"
)

// maxEventLine bounds one line of the stream: a chunk carrying a whole
// file's write in one tool-call delta fits; a line past it fails the
// stream (bufio.ErrTooLong) instead of growing memory without end.
const maxEventLine = 64 << 20

// maxOtherLines bounds what is kept of lines that are not server-sent
// events (quirk_stream_error.go reads them at the end).
const maxOtherLines = 64 << 10

// eventReader reads the data payloads of a chat-completions event stream:
// one JSON chunk per "data:" line, "data: [DONE]" at the end. Comment
// lines (keep-alives while a model thinks), blank lines and the other
// event fields are skipped; there is no limit on how many, since the idle
// timeout, not a line count, decides when a server is dead.
type eventReader struct {
	sc     *bufio.Scanner
	done   bool         // "data: [DONE]" was read
	events int          // data payloads read
	other  bytes.Buffer // lines that are not events, up to maxOtherLines
}

func newEventReader(r io.Reader) *eventReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxEventLine)
	return &eventReader{sc: sc}
}

// next returns the next data payload, valid until the next call; io.EOF
// after [DONE] or at the body's end, or the read error.
func (e *eventReader) next() ([]byte, error) {
	for !e.done && e.sc.Scan() {
		line := bytes.TrimSpace(e.sc.Bytes())
		data, ok := bytes.CutPrefix(line, []byte("data:"))
		switch {
		case ok:
			data = bytes.TrimSpace(data)
			if string(data) == "[DONE]" {
				e.done = true
				return nil, io.EOF
			}
			e.events++
			return data, nil
		case len(line) == 0 || line[0] == ':' || isEventField(line):
		case e.other.Len() < maxOtherLines:
			e.other.Write(line)
			e.other.WriteByte('\n')
		}
	}
	if err := e.sc.Err(); err != nil {
		return nil, err
	}
	return nil, io.EOF
}

// isEventField reports the server-sent event fields keel does not use.
func isEventField(line []byte) bool {
	for _, f := range []string{"event:", "id:", "retry:"} {
		if bytes.HasPrefix(line, []byte(f)) {
			return true
		}
	}
	return false
}
