package keellog

import (
	"context"
	"encoding/json"
	"github.com/keel-dev/keel/agent/datalog"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/keel-dev/keel/agent/llm"
)

// hostile is text a model or a tool could produce to act on the terminal
// that prints it: an OSC 52 clipboard write, a window title, a screen
// clear, a C1 CSI, a bell, backspaces and a carriage return that would
// hide what comes before them.
const hostile = "VISIBLE \x1b]52;c;cm0gLXJmIH4K\x07 \x1b]0;pwned\x1b\\ \x1b[2J\x1b[H \u009b1A \u009d0;t\u009c ding\x07 ab\b\b \x7f hidden\rshown"

// setStrings sets every exported string, []byte and json.RawMessage (as a
// JSON string) reachable from v to text, except ids, so a field added to a
// record is printed hostile without anyone remembering it.
func setStrings(v reflect.Value, text string) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(text)
	case reflect.Slice:
		switch {
		case v.Type() == reflect.TypeOf(json.RawMessage(nil)):
			b, _ := json.Marshal(text)
			v.SetBytes(b)
		case v.Type().Elem().Kind() == reflect.Uint8:
			v.SetBytes([]byte(text))
		default:
			if v.Len() == 0 {
				v.Set(reflect.MakeSlice(v.Type(), 1, 1))
			}
			for i := range v.Len() {
				setStrings(v.Index(i), text)
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() && f.Name != "ID" && f.Name != "SessionID" {
				setStrings(v.Field(i), text)
			}
		}
	}
}

// hostileFixture stores one session whose every text is hostile.
func hostileFixture(t *testing.T) (open func(bool) (*datalog.DB, error), sid string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "keel.db")
	db, err := datalog.Open(path, datalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var s datalog.Session
	setStrings(reflect.ValueOf(&s).Elem(), hostile)
	s.Config, s.ParentID = nil, "" // a user's session (a subagent's is listed under its parent)
	sid = startTest(t, db, s)
	startTest(t, db, datalog.Session{ParentID: sid, ParentCallID: hostile, Agent: hostile, FirstPrompt: hostile}) // printed in show's tree
	var rec datalog.RoundRecord
	setStrings(reflect.ValueOf(&rec).Elem(), hostile)
	rec.Round.SessionID, rec.Round.Seq, rec.Round.TaskSeq = sid, 1, 1
	rec.Request, rec.Response = nil, nil
	rec.Messages = []llm.Message{
		{Role: llm.RoleSystem, Content: hostile},
		{Role: llm.RoleUser, Content: hostile},
		{Role: llm.RoleAssistant, Content: hostile, ToolCalls: []llm.ToolCall{{ID: "c1", Name: hostile, Arguments: hostile}}},
		{Role: llm.RoleTool, Content: hostile, ToolCallID: "c1", Name: hostile},
	}
	for i := range rec.ToolCalls {
		rec.ToolCalls[i].IsError = true // printed with its result
	}
	mustWrite(t, db, rec)
	if err := db.EndSession(context.Background(), sid, hostile, datalog.Totals{}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return func(ro bool) (*datalog.DB, error) { return datalog.Open(path, datalog.Options{ReadOnly: ro}) }, sid
}

// controlIn reports the first control character in out that may act on a
// terminal: C0 but LF and TAB, DEL, C1 (encoded or raw), invalid UTF-8.
func controlIn(out string) (string, bool) {
	for i := 0; i < len(out); {
		r, size := utf8.DecodeRuneInString(out[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return out[max(i-20, 0):min(i+20, len(out))], true
		case (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			return out[max(i-20, 0):min(i+20, len(out))], true
		}
		i += size
	}
	return "", false
}

func TestLogTextOutputHasNoControlSequences(t *testing.T) {
	open, sid := hostileFixture(t)
	for _, args := range [][]string{
		nil,
		{"show", sid},
		{"show", sid, "--round", "1"},
		{"stats", sid},
		{"export", sid, "--format", "markdown"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			out, err := runLog(t, open, "", args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if near, bad := controlIn(out); bad {
				t.Fatalf("output holds a control character near %q:\n%q", near, out)
			}
			if !strings.Contains(out, "VISIBLE") {
				t.Fatalf("the text around the sequences is gone:\n%s", out)
			}
			if len(args) > 0 && args[0] != "stats" && !strings.Contains(out, "VISIBLE ␛") {
				t.Fatalf("no mark where a sequence was removed:\n%s", out)
			}
		})
	}
}

func TestLogJSONOutputEscapesC1(t *testing.T) {
	open, sid := hostileFixture(t)
	for _, args := range [][]string{
		{"--json"},
		{"show", sid, "--json"},
		{"stats", sid, "--json"},
		{"export", sid, "--format", "jsonl"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			out, err := runLog(t, open, "", args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if near, bad := controlIn(out); bad {
				t.Fatalf("JSON output holds a raw control character near %q", near)
			}
			if args[0] != "stats" && !strings.Contains(out, `\u009b1A`) {
				t.Fatalf("the C1 CSI is not kept as an escape:\n%s", out)
			}
		})
	}
	// JSON keeps every character: the text decodes back unchanged.
	out, err := runLog(t, open, "", "show", sid, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var d datalog.SessionDetail
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if d.Session.FirstPrompt != hostile {
		t.Fatalf("first prompt = %q, want %q", d.Session.FirstPrompt, hostile)
	}
}
