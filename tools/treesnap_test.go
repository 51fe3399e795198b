package tools

import (
	"path/filepath"
	"strings"
	"testing"
)

// run_command reports the files a command created, modified or deleted,
// and nothing for a command that changes nothing or only ignored files.
func TestRunCommandReportsChangedFiles(t *testing.T) {
	ws := newTestWS(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n", "keep.txt": "k\n", ".gitignore": "out/\n"})
	cases := []struct {
		cmd  string
		want []string // "path:what"
	}{
		{"ls && cat a.txt", nil},
		{"sed -i 's/a/A/' a.txt", []string{"a.txt:modified"}},
		{"echo more >> b.txt && echo new > c.txt", []string{"b.txt:modified", "c.txt:created"}},
		{"rm c.txt", []string{"c.txt:deleted"}},
		{"mkdir -p out && echo x > out/ignored.txt", nil},
	}
	for _, c := range cases {
		res := call(t, ws, Options{}, NameRunCommand, m{"command": c.cmd})
		var got []string
		for _, ch := range res.Changes {
			what := map[bool]string{true: "modified", false: "created"}[ch.Existed]
			if ch.Deleted {
				what = "deleted"
			}
			if !ch.ByCommand {
				t.Errorf("%q: a change not marked as the command's: %+v", c.cmd, ch)
			}
			got = append(got, ws.Rel(ch.Path)+":"+what)
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%q: changes %v, want %v", c.cmd, got, c.want)
		}
		if len(c.want) > 0 && !strings.Contains(res.Output, "[files changed by this command: ") {
			t.Errorf("%q: the output does not name the changes:\n%s", c.cmd, res.Output)
		}
	}
	// Undo leaves what commands changed and says nothing of it here: the
	// caller names them (keel undo).
	res := call(t, ws, Options{}, NameRunCommand, m{"command": "echo z > z.txt"})
	if outs := Undo(recorded(res.Changes)); len(outs) != 1 || outs[0].Done || !strings.Contains(outs[0].Left, "command") {
		t.Errorf("undo of a command's change: %+v", outs)
	}
	if readTestFile(t, filepath.Join(ws.Root(), "z.txt")) != "z\n" {
		t.Error("undo touched a file a command made")
	}
}

func TestJudgedChange(t *testing.T) {
	ws := newTestWS(t, map[string]string{"src.go": "package a\n", "bin": "\x7fELF\x00\x00binary", "empty": ""})
	if !JudgedChange(FileChange{Path: filepath.Join(ws.Root(), "src.go")}) || JudgedChange(FileChange{Path: filepath.Join(ws.Root(), "bin")}) ||
		JudgedChange(FileChange{Path: filepath.Join(ws.Root(), "empty")}) ||
		!JudgedChange(FileChange{Path: filepath.Join(ws.Root(), "gone"), Deleted: true}) {
		t.Error("source files and deletions are edits; binaries a build wrote are not")
	}
}

func TestReadsOnly(t *testing.T) {
	for cmd, want := range map[string]bool{
		"ls -la":                     true,
		"cat a.txt | grep x | wc -l": true,
		"git status && git diff":     true,
		"echo x > f":                 false,
		"sed -i s/a/b/ f":            false,
		"go test ./...":              false,
		"echo $(rm f)":               false,
		"python3 script.py":          false,
		"not a command (":            false,
	} {
		if got := readsOnly(cmd); got != want {
			t.Errorf("readsOnly(%q) = %v, want %v", cmd, got, want)
		}
	}
}
