package tools

import (
	"path/filepath"
	"strings"
	"testing"
)

const goSrc = "package p\n\nfunc A() {\n\treturn 1\n}\n\nfunc B() {\n\treturn 1\n}\n"

func TestEditFile(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		args    m
		isErr   bool
		want    []string // output substrings
		content string   // file afterwards ("" = unchanged)
	}{
		{"exact", goSrc, m{"old_string": "func A() {", "new_string": "func A2() {"}, false,
			[]string{"-func A() {", "+func A2() {"}, strings.Replace(goSrc, "func A()", "func A2()", 1)},
		{"ambiguous gives lines", goSrc, m{"old_string": "\treturn 1", "new_string": "\treturn 2"}, true,
			[]string{"occurs 2 times (lines 4, 8)", "replace_all"}, ""},
		{"replace all", goSrc, m{"old_string": "return 1", "new_string": "return 2", "replace_all": true}, false,
			[]string{"replaced 2 occurrences"}, strings.ReplaceAll(goSrc, "return 1", "return 2")},
		{"tolerant indentation", goSrc, m{"old_string": "func B() {\n    return 1\n}", "new_string": "func B() {\n    return 3\n}"}, false,
			[]string{"matched lines 7-9 ignoring indentation"}, strings.Replace(goSrc, "func B() {\n\treturn 1", "func B() {\n\treturn 3", 1)},
		{"tolerant trailing spaces", "a  \nb\t\nc\n", m{"old_string": "a\nb\n", "new_string": "A\nB\n"}, false,
			nil, "A\nB\nc\n"},
		{"tolerant ambiguous", "x\n  y\nx\n    y\n", m{"old_string": "x\n y", "new_string": "z"}, true,
			[]string{"matches 2 places (starting at lines 1, 3)"}, ""},
		{"not found gives candidates", goSrc, m{"old_string": "func C() {\n\treturn 1\n}", "new_string": "x"}, true,
			[]string{"not found", "lines 3-5", "     3\tfunc A() {"}, ""},
		{"nothing similar", goSrc, m{"old_string": "zebra quantum", "new_string": "x"}, true,
			[]string{"Nothing in the file resembles it"}, ""},
		{"already applied", goSrc, m{"old_string": "func Z() {", "new_string": "func B() {"}, true,
			[]string{"new_string already is (at line 7)", "already applied"}, ""},
		{"crlf kept", "a\r\nb\r\nc\r\n", m{"old_string": "b\nc", "new_string": "B\nC"}, false, nil, "a\r\nB\r\nC\r\n"},
		{"crlf old string", "a\r\nb\r\n", m{"old_string": "a\r\nb", "new_string": "x"}, false, nil, "x\r\n"},
		{"no final newline kept", "a\nb", m{"old_string": "b", "new_string": "c"}, false, []string{"No newline at end of file"}, "a\nc"},
		{"tolerant no final newline", "  a\n  b", m{"old_string": "a\nb", "new_string": "x\ny"}, false, nil, "  x\n  y"},
		{"delete lines tolerant", "keep\n  drop\nkeep2\n", m{"old_string": "\tdrop\n", "new_string": ""}, false, nil, "keep\nkeep2\n"},
		{"tolerant deeper lines", "func f() {\n\tif x {\n\t\ty()\n\t}\n}\n", m{"old_string": "  if x {\n    y()\n  }", "new_string": "  if x {\n    y()\n    z()\n  }"}, false,
			nil, "func f() {\n\tif x {\n\t\ty()\n\t\tz()\n\t}\n}\n"},
		{"empty file", "", m{"old_string": "x", "new_string": "y"}, true, []string{"The file is empty"}, ""},
		{"empty old", goSrc, m{"old_string": "", "new_string": "y"}, true, []string{"old_string is empty; to create a file"}, ""},
		{"identical", goSrc, m{"old_string": "func A", "new_string": "func A"}, true, []string{"identical"}, ""},
		{"invalid utf8 exact", "caf\xe9 = 1\n", m{"old_string": "= 1", "new_string": "= 2"}, false, nil, "caf\xe9 = 2\n"},
		{"binary", "a\x00b", m{"old_string": "a", "new_string": "b"}, true, []string{"binary file"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ws := newTestWS(t, map[string]string{"f.go": tc.file})
			ws.MarkRead(filepath.Join(ws.Root(), "f.go"), Version([]byte(tc.file)))
			tc.args["path"] = "f.go"
			res := call(t, ws, Options{}, NameEditFile, tc.args)
			wantOutput(t, res, tc.isErr, tc.want...)
			want := tc.content
			if want == "" {
				want = tc.file
			}
			if got := readTestFile(t, filepath.Join(ws.Root(), "f.go")); got != want {
				t.Errorf("file = %q, want %q", got, want)
			}
			if tc.isErr != (len(res.Changes) == 0) {
				t.Errorf("Changes = %d entries", len(res.Changes))
			}
		})
	}
}

func TestEditFileRules(t *testing.T) {
	ws := newTestWS(t, map[string]string{"f.go": goSrc})
	edit := m{"path": "f.go", "old_string": "func A", "new_string": "func A1"}
	wantOutput(t, call(t, ws, Options{}, NameEditFile, edit), true, "read it first")
	call(t, ws, Options{}, NameReadFile, m{"path": "f.go"})
	writeTestFile(t, filepath.Join(ws.Root(), "f.go"), goSrc+"// changed\n")
	wantOutput(t, call(t, ws, Options{}, NameEditFile, edit), true, "changed on disk since you read it")
	call(t, ws, Options{}, NameReadFile, m{"path": "f.go"})
	wantOutput(t, call(t, ws, Options{}, NameEditFile, edit), false, "updated f.go")
	// a second edit needs no re-read: keel knows what it wrote
	wantOutput(t, call(t, ws, Options{}, NameEditFile, m{"path": "f.go", "old_string": "func B", "new_string": "func B1"}), false, "updated")
	wantOutput(t, call(t, ws, Options{}, NameEditFile, m{"path": "missing.go", "old_string": "a", "new_string": "b"}), true, "file not found: missing.go", "use write_file")
	wantOutput(t, call(t, ws, Options{}, NameEditFile, m{"path": ".git/HEAD", "old_string": "a", "new_string": "b"}), true, ".git")
}
