package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzEditMatch checks the matcher's safety: an ambiguous match (several
// exact occurrences without replace_all, or several tolerant windows)
// never produces a write, and a unique exact match replaces exactly it.
func FuzzEditMatch(f *testing.F) {
	f.Add("a\nb\na\n", "a", "c", false)
	f.Add("  x\ny\n    x\ny\n", "x\ny", "z", false)
	f.Add("func A() {\n\treturn 1\n}\n", "func A() {\n    return 1\n}", "func A() {}", false)
	f.Add("x\r\ny\r\n", "x\ny", "q", true)
	f.Add("", "a", "b", false)
	f.Add("aaa", "aa", "b", false)
	f.Fuzz(func(t *testing.T, content, old, new string, all bool) {
		p := planEdit(content, old, new, all)
		exact := 0
		if old != "" {
			exact = strings.Count(content, old)
		}
		switch {
		case old == "" || old == new:
			if p.ok {
				t.Fatal("applied an empty or no-op edit")
			}
		case exact > 1 && !all:
			if p.ok {
				t.Fatalf("applied an edit that occurs %d times", exact)
			}
		case exact >= 1:
			if !p.ok || p.result != strings.ReplaceAll(content, old, new) {
				t.Fatalf("exact edit: ok=%v result %q", p.ok, p.result)
			}
		default:
			lines := strings.SplitAfter(content, "\n")
			if lines[len(lines)-1] == "" {
				lines = lines[:len(lines)-1]
			}
			n := len(tolerantMatches(lines, splitLines(old)))
			if p.ok && (n != 1 || strings.TrimSpace(old) == "") {
				t.Fatalf("applied a tolerant edit with %d matches", n)
			}
		}
		if !p.ok && p.msg == "" {
			t.Fatal("refusal without a message")
		}
		if !p.ok {
			checkToolDoesNotWrite(t, content, old, new, all)
		}
	})
}

// checkToolDoesNotWrite runs edit_file for real and checks a refused edit
// leaves the file byte for byte as it was.
func checkToolDoesNotWrite(t *testing.T, content, old, new string, all bool) {
	dir := t.TempDir()
	ws, err := NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(ws.Root(), "f.txt")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	ws.MarkRead(p, Version([]byte(content)))
	args, _ := json.Marshal(editFileParams{Path: "f.txt", OldString: old, NewString: new, ReplaceAll: all})
	res, err := newEditFile(ws).Run(context.Background(), args)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	if len(res.Changes) > 0 && isCRLF([]byte(content)) {
		return // CRLF files are matched in LF form, where the edit may be unique
	}
	if string(got) != content || len(res.Changes) > 0 {
		t.Fatalf("refused edit wrote the file: %q -> %q", content, got)
	}
}
