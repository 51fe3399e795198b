package llm

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// payloads reads every data payload of stream.
func payloads(t testing.TB, stream io.Reader) ([]string, *eventReader, error) {
	t.Helper()
	e := newEventReader(stream)
	var out []string
	for {
		p, err := e.next()
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return out, e, err
		}
		out = append(out, string(p))
	}
}

func TestEventReader(t *testing.T) {
	tests := []struct {
		name   string
		stream string
		want   []string
		done   bool
		other  string
	}{
		{"OpenAI", "data: {\"a\":1}\n\ndata: {\"b\":2}\n\ndata: [DONE]\n\n", []string{`{"a":1}`, `{"b":2}`}, true, ""},
		{"no space after data:", "data:{\"a\":1}\n\ndata:[DONE]\n", []string{`{"a":1}`}, true, ""},
		{"CRLF lines", "data: {\"a\":1}\r\n\r\ndata: [DONE]\r\n\r\n", []string{`{"a":1}`}, true, ""},
		{"keep-alive comments and event fields", ": ping\n\n: ping\nevent: message\nid: 7\nretry: 100\ndata: {\"a\":1}\n\n",
			[]string{`{"a":1}`}, false, ""},
		{"nothing after [DONE] is read", "data: [DONE]\n\ndata: {\"late\":1}\n", nil, true, ""},
		{"no newline at the end", "data: {\"a\":1}", []string{`{"a":1}`}, false, ""},
		{"[DONE] in a payload's text is not the end", "data: {\"t\":\"data: [DONE]\"}\n", []string{`{"t":"data: [DONE]"}`}, false, ""},
		{"a JSON body instead of events", "{\"error\":\n {\"message\":\"no\"}}\n", nil, false, "{\"error\":\n{\"message\":\"no\"}}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// One byte a read: a line split across reads is still one line.
			got, e, err := payloads(t, iotest.OneByteReader(strings.NewReader(tt.stream)))
			if err != nil || strings.Join(got, "|") != strings.Join(tt.want, "|") || e.done != tt.done || e.other.String() != tt.other {
				t.Errorf("payloads %q done %v other %q err %v; want %q done %v other %q",
					got, e.done, e.other.String(), err, tt.want, tt.done, tt.other)
			}
		})
	}
}

// A read error is returned as it is (the caller classifies it); a line
// longer than maxEventLine fails the stream instead of growing memory.
func TestEventReaderErrors(t *testing.T) {
	boom := errors.New("connection reset")
	_, _, err := payloads(t, io.MultiReader(strings.NewReader("data: {}\n"), iotest.ErrReader(boom)))
	if !errors.Is(err, boom) {
		t.Errorf("read error = %v, want %v", err, boom)
	}
	long := io.MultiReader(strings.NewReader("data: \""), &repeatReader{b: 'x', n: maxEventLine + 1})
	if _, _, err := payloads(t, long); err == nil {
		t.Error("a line over maxEventLine was read")
	}
}

type repeatReader struct {
	b byte
	n int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	n := min(len(p), r.n)
	for i := range n {
		p[i] = r.b
	}
	r.n -= n
	return n, nil
}

// FuzzEventReader: any stream is read without panic, and every payload it
// returns came from a data line of that stream.
func FuzzEventReader(f *testing.F) {
	f.Add("data: {\"a\":1}\n\ndata: [DONE]\n")
	f.Add(": ping\r\nevent: x\r\ndata:\r\n{\"error\":1}\n")
	f.Add("data:data: [DONE]\n\x00\ndata:  [DONE]  \n")
	f.Fuzz(func(t *testing.T, stream string) {
		got, _, err := payloads(t, strings.NewReader(stream))
		if err != nil {
			t.Fatalf("error on an in-memory stream: %v", err)
		}
		for _, p := range got {
			if p == "[DONE]" || !strings.Contains(stream, p) {
				t.Fatalf("payload %q is not from a data line of %q", p, stream)
			}
		}
	})
}
