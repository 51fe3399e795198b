package tools

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/aymanbagabas/go-udiff"
)

type writeFileParams struct {
	Path    string `json:"path" description:"File to create or overwrite: relative to the workspace root, absolute, or starting with ~. Parent directories are created."`
	Content string `json:"content" description:"The complete new content of the file."`
}

const writeFileDesc = `Create a file, or replace an existing file's whole content. Use it for new files; to change part of an existing file use edit_file instead. An existing file must have been read with read_file in this session and not changed since. Returns a diff.`

func newWriteFile(ws *Workspace) Tool {
	return newTyped(NameWriteFile, writeFileDesc, Write, func(ctx context.Context, p writeFileParams) (Result, error) {
		return writeFile(ctx, ws, p)
	})
}

func writeFile(ctx context.Context, ws *Workspace, p writeFileParams) (Result, error) {
	abs, msg := resolveForWrite(ctx, ws, p.Path)
	if msg != "" {
		return errResult("%s", msg), nil
	}
	before, mode, existed, msg := statForWrite(ctx, ws, abs)
	if msg != "" {
		return errResult("%s", msg), nil
	}
	if existed {
		if msg := ws.checkFresh(abs, before); msg != "" {
			return errResult("%s", msg), nil
		}
	}
	after := []byte(p.Content)
	if existed && isCRLF(before) && !strings.Contains(p.Content, "\r\n") {
		after = bytes.ReplaceAll(after, []byte("\n"), []byte("\r\n")) // keep the file's line endings
	}
	if existed && bytes.Equal(before, after) {
		return Result{Output: fmt.Sprintf("%s already has this content; nothing written", ws.Rel(abs))}, nil
	}
	if err := ws.mkdirAll(filepath.Dir(abs)); err != nil {
		return errResult("cannot create the parent directories of %s: %v", ws.Rel(abs), err), nil
	}
	return commitWrite(ctx, ws, abs, before, after, mode, existed, "")
}

// resolveForWrite resolves a path a tool will write, refusing .git.
func resolveForWrite(ctx context.Context, ws *Workspace, p string) (string, string) {
	if strings.TrimSpace(p) == "" {
		return "", "path is required"
	}
	abs, err := resolveCall(ctx, ws, p)
	if err != nil {
		return "", fmt.Sprintf("cannot resolve %q: %v", p, err)
	}
	if InGitDir(abs) {
		return "", fmt.Sprintf("%s is inside a .git directory; keel never writes there (use git commands instead)", ws.Rel(abs))
	}
	return abs, ""
}

// commitWrite writes after atomically and builds the result: a diff, the
// undo record, and the new read version (keel knows what it wrote, so a
// follow-up edit needs no re-read).
func commitWrite(ctx context.Context, ws *Workspace, abs string, before, after []byte, mode fs.FileMode, existed bool, note string) (Result, error) {
	if err := ws.writeText(ctx, abs, after, mode); err != nil {
		return errResult("write failed, file unchanged: %v", err), nil
	}
	ws.MarkRead(abs, Version(after))
	rel := ws.Rel(abs)
	diff := udiff.Unified("a/"+rel, "b/"+rel, string(before), string(after))
	verb := "updated"
	if !existed {
		verb = "created"
	}
	out := fmt.Sprintf("%s %s (%s lines)%s\n", verb, rel, commas(len(splitLines(string(after)))), note)
	if existed {
		out += diff // a new file's diff would only repeat the content
	}
	ch := FileChange{Path: abs, Existed: existed, Before: before, After: after, Mode: uint32(mode.Perm())}
	return Result{Output: out, Diff: diff, Changes: []FileChange{ch}}, nil
}
