package tools

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestFilesRespectsGitignore(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(dir, rel)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(content), 0o644))
	}
	must(t, os.Mkdir(filepath.Join(dir, ".git"), 0o755))
	write(".gitignore", "build/\n*.log\n")
	write("main.go", "package main")
	write("ui/model.go", "package ui")
	write("build/out.bin", "x")
	write("debug.log", "x")
	write(".git/config", "x")
	must(t, os.Symlink("/etc/passwd", filepath.Join(dir, "passwd")))
	ws, err := NewWorkspace(dir)
	must(t, err)
	got, err := ws.Files(context.Background(), 0)
	must(t, err)
	if want := []string{".gitignore", "main.go", "ui/model.go"}; !slices.Equal(got, want) {
		t.Fatalf("Files = %q, want %q", got, want)
	}
	if got, _ := ws.Files(context.Background(), 2); len(got) != 2 {
		t.Fatalf("limit 2 gave %d files", len(got))
	}
}

func TestReadMention(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte(strings.Repeat("é", 20)), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "img.png"), []byte("\x89PNG\x00\x01"), 0o644))
	must(t, os.Symlink("/etc/hostname", filepath.Join(dir, "out")))
	ws, err := NewWorkspace(dir)
	must(t, err)
	text, size, err := ws.ReadMention("a.txt", 7) // cuts the fourth é in half
	if err != nil || text != "ééé" || size != 40 {
		t.Fatalf("a.txt: %q %d %v", text, size, err)
	}
	for rel, want := range map[string]string{"img.png": "img.png is a binary file", "out": "outside the workspace",
		"../x": "outside the workspace", ".": "not a regular file"} {
		if _, _, err := ws.ReadMention(rel, 100); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err %v, want %q", rel, err, want)
		}
	}
}
