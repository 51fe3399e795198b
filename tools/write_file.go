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
	return writeFileTool{typed: newTyped(NameWriteFile, writeFileDesc, Write, func(ctx context.Context, p writeFileParams) (Result, error) {
		return writeFile(ctx, ws, p)
	}), ws: ws}
}

func writeFile(ctx context.Context, ws *Workspace, p writeFileParams) (Result, error) {
	t, msg := prepareWrite(ctx, ws, p.Path)
	if msg != "" {
		return errResult("%s", msg), nil
	}
	abs, before, mode, existed := t.abs, t.before, t.mode, t.existed
	after := []byte(p.Content)
	if existed && isCRLF(before) && !strings.Contains(p.Content, "\r\n") {
		after = bytes.ReplaceAll(after, []byte("\n"), []byte("\r\n")) // keep the file's line endings
	}
	if existed && bytes.Equal(before, after) {
		return Result{Output: fmt.Sprintf("%s already has this content; nothing written", ws.Rel(abs))}, nil
	}
	return commitWrite(ctx, ws, abs, before, after, mode, existed, "")
}

// writeTarget is a file write_file is about to write, as it is now.
type writeTarget struct {
	abs     string
	before  []byte
	mode    fs.FileMode
	existed bool
}

// prepareWrite resolves path and reads the file there, refusing what
// write_file must not write (.git, a file changed since the model read
// it); msg says why.
func prepareWrite(ctx context.Context, ws *Workspace, path string) (t writeTarget, msg string) {
	if t.abs, msg = resolveForWrite(ctx, ws, path); msg != "" {
		return t, msg
	}
	if t.before, t.mode, t.existed, msg = statForWrite(ctx, ws, t.abs); msg != "" {
		return t, msg
	}
	if t.existed {
		msg = ws.checkFresh(t.abs, t.before)
	}
	return t, msg
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

// commitWrite journals the change, writes after atomically and builds the
// result: a diff, the undo record, and the new read version (keel knows
// what it wrote, so a follow-up edit needs no re-read).
func commitWrite(ctx context.Context, ws *Workspace, abs string, before, after []byte, mode fs.FileMode, existed bool, note string) (Result, error) {
	ch := FileChange{Path: abs, Existed: existed, Before: before, Mode: uint32(mode.Perm()),
		BeforeSHA256: sha256Hex(before), AfterSHA256: sha256Hex(after)}
	if !existed {
		ch.NewDirs = missingDirs(ws, filepath.Dir(abs))
	}
	if msg := ws.record(ctx, &ch); msg != "" { // before the directories: undo knows them all
		return errResult("%s", msg), nil
	}
	if err := ws.mkdirAll(filepath.Dir(abs)); err != nil {
		removeDirs(ch.NewDirs)
		return errResult("cannot create the parent directories of %s: %v", ws.Rel(abs), err), nil
	}
	if err := ws.writeText(ctx, abs, after, mode); err != nil {
		removeDirs(ch.NewDirs)
		return errResult("write failed, file unchanged: %v", err), nil
	}
	ch.After = after
	ws.MarkRead(abs, Version(after))
	rel := ws.Rel(abs)
	verb := "updated"
	if !existed {
		verb = "created"
	}
	out := fmt.Sprintf("%s %s (%s lines)%s\n", verb, rel, commas(countLines(after)), note)
	diff := writeDiff(rel, before, after, existed)
	if existed {
		out += diff // a new file's diff would only repeat the content
	}
	return Result{Output: out, Diff: diff, Changes: []FileChange{ch}}, nil
}

// maxDiffBytes is the content size above which a write shows no diff: a
// diff of a big file costs memory and time out of proportion, and nobody
// reads it.
const maxDiffBytes = 2 << 20

// writeDiff is the unified diff of a write, or a line saying why there is
// none.
func writeDiff(rel string, before, after []byte, existed bool) string {
	if len(before)+len(after) > maxDiffBytes {
		return fmt.Sprintf("(no diff: %s is over %s)\n", rel, humanSize(maxDiffBytes))
	}
	if !existed {
		before = nil
	}
	return udiff.Unified("a/"+rel, "b/"+rel, string(before), string(after))
}

// countLines is splitLines' count without the slice.
func countLines(b []byte) int {
	n := bytes.Count(b, []byte("\n"))
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}
