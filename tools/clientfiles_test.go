package tools

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// editorFiles is an editor holding buffers: reads see them, writes
// replace them; the disk is left alone.
type editorFiles struct {
	mu      sync.Mutex
	buffers map[string]string
	writes  []string
	fail    bool
}

func (e *editorFiles) ReadTextFile(_ context.Context, path string) (string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.fail {
		return "", errors.New("no buffer")
	}
	if b, ok := e.buffers[path]; ok {
		return b, nil
	}
	return "", errors.New("not open")
}

func (e *editorFiles) WriteTextFile(_ context.Context, path, content string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.buffers[path] = content
	e.writes = append(e.writes, path)
	return nil
}

func TestClientFilesSeeUnsavedBuffersAndTakeWrites(t *testing.T) {
	ws := newTestWS(t, map[string]string{"a.go": "package a // on disk\n"})
	abs := filepath.Join(ws.Root(), "a.go")
	ed := &editorFiles{buffers: map[string]string{abs: "package a // unsaved\n"}}
	ws.UseClientFiles(ed)
	if r := call(t, ws, Options{}, NameReadFile, map[string]any{"path": "a.go"}); !strings.Contains(r.Output, "unsaved") {
		t.Fatalf("read_file did not see the editor's buffer: %s", r.Output)
	}
	r := call(t, ws, Options{}, NameEditFile, map[string]any{"path": "a.go", "old_string": "unsaved", "new_string": "edited"})
	if r.IsError {
		t.Fatalf("edit_file: %s", r.Output)
	}
	if got := ed.buffers[abs]; got != "package a // edited\n" || len(ed.writes) != 1 {
		t.Errorf("the editor got %q in %d writes", got, len(ed.writes))
	}
	if disk := readTestFile(t, abs); disk != "package a // on disk\n" {
		t.Errorf("the disk was written behind the editor's back: %q", disk)
	}
	if len(r.Changes) != 1 || string(r.Changes[0].Before) != "package a // unsaved\n" {
		t.Errorf("undo would not restore what the editor held: %+v", r.Changes)
	}
	if !strings.Contains(r.Diff, "-package a // unsaved") {
		t.Errorf("diff = %q", r.Diff)
	}
}

func TestClientFilesThatCannotAnswerFallBackToTheDisk(t *testing.T) {
	ws := newTestWS(t, map[string]string{"a.go": "package a // on disk\n"})
	ws.UseClientFiles(&editorFiles{buffers: map[string]string{}, fail: true})
	if r := call(t, ws, Options{}, NameReadFile, map[string]any{"path": "a.go"}); !strings.Contains(r.Output, "on disk") {
		t.Fatalf("read_file = %s", r.Output)
	}
}
