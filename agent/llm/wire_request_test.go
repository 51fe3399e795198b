package llm

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestEncodeCacheFollowsChanges(t *testing.T) {
	var c encodeCache
	h := []Message{
		{Role: RoleUser, Content: "a"},
		{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "1", Name: "f", Arguments: "{}"}}},
		{Role: RoleTool, ToolCallID: "1", Content: ""},
	}
	steps := []struct {
		name string
		msgs []Message
	}{
		{"first", h},
		{"appended", append(h[:3:3], Message{Role: RoleUser, Content: "<b> & c"})},
		{"rewritten middle (compaction)", []Message{{Role: RoleUser, Content: "summary"}, h[1], h[2]}},
		{"shorter", h[:1]},
	}
	for _, s := range steps {
		body, err := bodyBytes(c.body(Request{Model: "m", Messages: s.msgs}, 0, 0))
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Messages []map[string]any `json:"messages"`
		}
		if err := json.Unmarshal(body, &got); err != nil {
			t.Fatalf("%s: invalid body %s: %v", s.name, body, err)
		}
		fresh, _ := bodyBytes((&encodeCache{}).body(Request{Model: "m", Messages: s.msgs}, 0, 0))
		if string(body) != string(fresh) || len(got.Messages) != len(s.msgs) {
			t.Errorf("%s: cached body differs from a fresh one:\n%s\n%s", s.name, body, fresh)
		}
	}
	body, _ := bodyBytes(c.body(Request{Messages: h}, 0, 0))
	if !strings.Contains(string(body), `{"role":"tool","content":"","tool_call_id":"1"}`) ||
		!strings.Contains(string(body), `{"role":"assistant","tool_calls":[`) {
		t.Errorf("content rules: %s", body)
	}
}

func TestEncodeCacheCopiesToolCalls(t *testing.T) {
	var c encodeCache
	calls := []ToolCall{{ID: "1", Name: "f", Arguments: "{}"}}
	msgs := []Message{{Role: RoleAssistant, ToolCalls: calls}}
	_, _ = bodyBytes(c.body(Request{Messages: msgs}, 0, 0))
	calls[0].Arguments = `{"changed":true}` // the caller edits in place
	body, _ := bodyBytes(c.body(Request{Messages: msgs}, 0, 0))
	if !strings.Contains(string(body), "changed") {
		t.Errorf("stale encoding after an in-place edit: %s", body)
	}
}

func TestEncodeCacheReusesToolsOnlyWhileUnchanged(t *testing.T) {
	var c encodeCache
	msgs := []Message{{Role: RoleUser, Content: "a"}}
	a := []ToolDef{{Name: "read_file", Description: "reads", Parameters: json.RawMessage(`{"type":"object"}`)}}
	b := []ToolDef{{Name: "read_file", Description: "reads", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)}}
	for _, step := range []struct {
		name  string
		tools []ToolDef
		want  string
	}{
		{"first", a, `"tools":[{"type":"function","function":{"name":"read_file","description":"reads","parameters":{"type":"object"}}}]`},
		{"same again", a, `"parameters":{"type":"object"}}`},
		{"schema changed", b, `"properties":{"path":{"type":"string"}}`},
		{"none", nil, ""},
	} {
		body, err := bodyBytes(c.body(Request{Model: "m", Messages: msgs, Tools: step.tools}, 0, 0))
		if err != nil {
			t.Fatal(err)
		}
		fresh, _ := bodyBytes((&encodeCache{}).body(Request{Model: "m", Messages: msgs, Tools: step.tools}, 0, 0))
		if string(body) != string(fresh) || !strings.Contains(string(body), step.want) {
			t.Errorf("%s: body %s\nfresh %s", step.name, body, fresh)
		}
		if step.tools == nil && strings.Contains(string(body), `"tools"`) {
			t.Errorf("no tools still sent tools: %s", body)
		}
	}
}

// bodyBytes is a built body in one slice.
func bodyBytes(b wireBody, err error) ([]byte, error) { return b.Bytes(), err }

// A body handed out stays the same while later requests extend the
// cached head past it or start a new one (a request may still be sending
// it, or be retried).
func TestEncodeCacheBodiesStayPut(t *testing.T) {
	var c encodeCache
	h := []Message{{Role: RoleUser, Content: "first"}, {Role: RoleAssistant, Content: "one"}}
	first, err := c.body(Request{Model: "m", Messages: h}, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := string(first.Bytes())
	for _, next := range [][]Message{
		append(h[:2:2], Message{Role: RoleUser, Content: "second"}),
		append(h[:2:2], Message{Role: RoleUser, Content: "second"}, Message{Role: RoleAssistant, Content: strings.Repeat("x", 1<<16)}),
		{{Role: RoleUser, Content: "summary"}},
	} {
		if _, err := c.body(Request{Model: "m", Messages: next}, 0, 0); err != nil {
			t.Fatal(err)
		}
		if got := string(first.Bytes()); got != want {
			t.Fatalf("the first body changed:\n%s\nwant\n%s", got, want)
		}
	}
	if r, _ := io.ReadAll(first.Reader()); string(r) != want {
		t.Errorf("Reader gives %s", r)
	}
}

// TestBodyReader reads a two-part body every way net/http may: small
// reads, WriteTo, a read then WriteTo, and a writer that fails.
func TestBodyReader(t *testing.T) {
	for _, tc := range []struct{ head, tail string }{
		{`{"model":"m","messages":[{"role":"user"}`, `],"stream":true}`},
		{"", "tail only"},
		{"head only", ""},
		{"", ""},
	} {
		want := tc.head + tc.tail
		body := wireBody{head: []byte(tc.head), tail: []byte(tc.tail)}
		var got []byte
		buf := make([]byte, 3)
		r := body.Reader()
		for {
			n, err := r.Read(buf)
			got = append(got, buf[:n]...)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if string(got) != want {
			t.Errorf("Read in 3-byte pieces = %q, want %q", got, want)
		}
		var sb strings.Builder
		r = body.Reader()
		if n, err := io.Copy(&sb, r); err != nil || n != int64(len(want)) || sb.String() != want {
			t.Errorf("io.Copy (WriteTo) = %q, %d, %v; want %q", sb.String(), n, err, want)
		}
		if n, _ := io.Copy(io.Discard, r); n != 0 {
			t.Errorf("a drained body gave %d more bytes", n)
		}
		if len(want) > 2 {
			r = body.Reader()
			first := make([]byte, 2)
			if _, err := io.ReadFull(r, first); err != nil {
				t.Fatal(err)
			}
			sb.Reset()
			if _, err := io.Copy(&sb, r); err != nil || string(first)+sb.String() != want {
				t.Errorf("a read then WriteTo = %q+%q, want %q", first, sb.String(), want)
			}
		}
	}
	failing := failAfter{n: 5}
	if n, err := (wireBody{head: []byte("0123456789"), tail: []byte("ab")}).Reader().WriteTo(&failing); err == nil || n != 5 {
		t.Errorf("WriteTo into a failing writer = %d, %v; want 5 and the error", n, err)
	}
}

// failAfter accepts n bytes, then fails.
type failAfter struct{ n int }

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) <= f.n {
		f.n -= len(p)
		return len(p), nil
	}
	n := f.n
	f.n = 0
	return n, errors.New("disk full")
}

// TestEncodeCacheTailFollowsChanges: the body's end is kept between
// requests; a change of tools or token limits must show, and a body
// handed out earlier must not change.
func TestEncodeCacheTailFollowsChanges(t *testing.T) {
	var c encodeCache
	msgs := []Message{{Role: RoleUser, Content: "a"}}
	read := ToolDef{Name: "read_file", Description: "read", Parameters: json.RawMessage(`{"type":"object"}`)}
	grep := ToolDef{Name: "grep", Description: "grep"}
	steps := []struct {
		name          string
		tools         []ToolDef
		max, maxCompl int
	}{
		{"tools", []ToolDef{read}, 0, 0},
		{"the same again", []ToolDef{read}, 0, 0},
		{"a tool added", []ToolDef{read, grep}, 0, 0},
		{"max tokens", []ToolDef{read, grep}, 100, 0},
		{"max completion tokens", []ToolDef{read, grep}, 0, 200},
		{"no tools", nil, 0, 200},
		{"no tools, no limit", nil, 0, 0},
	}
	var first []byte
	for i, s := range steps {
		req := Request{Model: "m", Messages: msgs, Tools: s.tools}
		body, err := c.body(req, s.max, s.maxCompl)
		if err != nil {
			t.Fatal(err)
		}
		fresh, _ := (&encodeCache{}).body(req, s.max, s.maxCompl)
		if string(body.Bytes()) != string(fresh.Bytes()) {
			t.Errorf("%s: cached body\n%s\ndiffers from a fresh one\n%s", s.name, body.Bytes(), fresh.Bytes())
		}
		if i == 0 {
			first = body.Bytes()
			defer func(b wireBody) {
				if string(b.Bytes()) != string(first) {
					t.Errorf("the first body changed after later requests:\n%s\nwas\n%s", b.Bytes(), first)
				}
			}(body)
		}
	}
}
