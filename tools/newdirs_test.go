package tools

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Undo takes the workspace back to how it was, directories included: the
// ones keel created for new files go, the ones that were there or that
// hold something else stay.
func TestUndoRemovesTheDirectoriesItCreated(t *testing.T) {
	tests := []struct {
		name     string
		existing []string // directories there before the task
		writes   []string // new files keel writes
		big      bool     // content past maxDiffBytes: the streaming write
		after    func(t *testing.T, root string)
		gone     []string // directories undo removes
		kept     []string // directories that stay
	}{
		{name: "nested new directories", writes: []string{"new/deep/dir/x.go"},
			gone: []string{"new/deep/dir", "new/deep", "new"}},
		{name: "a directory two new files share", writes: []string{"new/deep/x.go", "new/y.go"},
			gone: []string{"new/deep", "new"}},
		{name: "a large new file (streamed)", writes: []string{"gen/out/big.go"}, big: true,
			gone: []string{"gen/out", "gen"}},
		{name: "a directory that was there", existing: []string{"old"}, writes: []string{"old/sub/z.go"},
			gone: []string{"old/sub"}, kept: []string{"old"}},
		{name: "a directory the user put a file in", writes: []string{"other/deep/q.go"},
			after: func(t *testing.T, root string) { writeTestFile(t, filepath.Join(root, "other", "user.txt"), "mine\n") },
			gone:  []string{"other/deep"}, kept: []string{"other"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := newTestWS(t, map[string]string{"a.go": "one\n"})
			root := ws.Root()
			for _, d := range tt.existing {
				if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			content := "package x\n"
			if tt.big {
				content += strings.Repeat("// generated\n", maxDiffBytes/13)
			}
			var changes []FileChange
			for _, w := range tt.writes {
				r := call(t, ws, Options{}, NameWriteFile, m{"path": w, "content": content})
				if r.IsError {
					t.Fatal(r.Output)
				}
				changes = append(changes, r.Changes...)
			}
			if tt.after != nil {
				tt.after(t, root)
			}
			var removed []string
			for _, o := range undoAll(t, changes) {
				for _, d := range o.RemovedDirs {
					rel, _ := filepath.Rel(root, d)
					removed = append(removed, rel)
				}
			}
			for _, d := range tt.gone {
				if _, err := os.Lstat(filepath.Join(root, d)); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s is still there (%v)", d, err)
				}
			}
			for _, d := range tt.kept {
				if fi, err := os.Lstat(filepath.Join(root, d)); err != nil || !fi.IsDir() {
					t.Errorf("%s is gone (%v)", d, err)
				}
			}
			slices.Sort(removed)
			want := slices.Clone(tt.gone)
			slices.Sort(want)
			if strings.Join(removed, " ") != strings.Join(want, " ") {
				t.Errorf("named as removed %q, want %q", removed, want)
			}
		})
	}
}

// The directories of a new file are journaled with it, before they are
// made: undo after a kill between the two knows them.
func TestNewDirectoriesAreJournaledFirst(t *testing.T) {
	ws := newTestWS(t, map[string]string{})
	j := &recordingJournal{refuse: errors.New("the datalog cannot record (disk full)")}
	ws.SetJournal(j)
	r := call(t, ws, Options{}, NameWriteFile, m{"path": "a/b/c.go", "content": "package b\n"})
	if !r.IsError {
		t.Fatalf("a refused journal wrote anyway: %s", r.Output)
	}
	if _, err := os.Lstat(filepath.Join(ws.Root(), "a")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused write created its directories (%v)", err)
	}
	j.refuse = nil
	r = call(t, ws, Options{}, NameWriteFile, m{"path": "a/b/c.go", "content": "package b\n"})
	if r.IsError || len(j.got) != 1 {
		t.Fatalf("%s; journaled %d", r.Output, len(j.got))
	}
	want := []string{filepath.Join(ws.Root(), "a"), filepath.Join(ws.Root(), "a", "b")}
	if !slices.Equal(j.got[0].NewDirs, want) {
		t.Errorf("journaled new directories %q, want %q", j.got[0].NewDirs, want)
	}
}
