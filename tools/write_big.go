package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/keel-dev/keel/internal/bigargs"
)

// A write_file whose content is larger than maxDiffBytes is written
// straight from the call's arguments: the JSON string is hashed first
// (the journal records the hash before the file changes), then decoded
// into the temp file through a small buffer. The content is never held
// decoded, and the change keeps its hash, not a copy (AfterNotKept): a 50
// MB write cost its arguments, a decoded copy, a []byte copy and the
// datalog's copies (issue 26).

// writeFileTool is write_file: the typed tool, with the streaming path.
type writeFileTool struct {
	*typed[writeFileParams]
	ws *Workspace
}

func (t writeFileTool) Run(ctx context.Context, args json.RawMessage) (Result, error) {
	if len(args) <= maxDiffBytes || t.ws.client != nil {
		return t.typed.Run(ctx, args)
	}
	skel, ok := bigargs.Skeleton(args, 4<<10)
	lit, found := bigargs.Member(args, "content")
	if !ok || !found || len(lit) < 2 || lit[0] != '"' {
		return t.typed.Run(ctx, args) // it says what is wrong
	}
	var p writeFileParams
	if err := decodeStrict(strings.NewReader(skel), &p); err != nil {
		return errResult("invalid arguments for %s: %v", t.name, err), nil
	}
	return streamWrite(ctx, t.ws, p.Path, lit)
}

// streamWrite is writeFile for content given as its JSON string literal.
func streamWrite(ctx context.Context, ws *Workspace, path string, lit []byte) (Result, error) {
	t, msg := prepareWrite(ctx, ws, path)
	if msg != "" {
		return errResult("%s", msg), nil
	}
	abs, before, mode, existed := t.abs, t.before, t.mode, t.existed
	if existed && isCRLF(before) { // line endings to keep: the ordinary path converts them
		var content string
		if err := json.Unmarshal(lit, &content); err != nil {
			return errResult("invalid arguments for %s: %v", NameWriteFile, err), nil
		}
		return writeFile(ctx, ws, writeFileParams{Path: path, Content: content})
	}
	size, sum := bigargs.Digest(lit)
	if existed && sha256Hex(before) == sum {
		return Result{Output: fmt.Sprintf("%s already has this content; nothing written", ws.Rel(abs))}, nil
	}
	ch := FileChange{Path: abs, Existed: existed, Before: before, Mode: uint32(mode.Perm()),
		BeforeSHA256: sha256Hex(before), AfterSHA256: sum, AfterNotKept: true}
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
	var lines lineCounter
	err := writeAtFrom(abs, mode, func(w io.Writer) error {
		_, err := bigargs.DecodeTo(lit, io.MultiWriter(w, &lines))
		return err
	})
	if err != nil {
		removeDirs(ch.NewDirs)
		return errResult("write failed, file unchanged: %v", err), nil
	}
	ws.MarkRead(abs, sum[:16]) // Version: the first 8 bytes of the SHA-256, in hex
	rel := ws.Rel(abs)
	verb := "updated"
	if !existed {
		verb = "created"
	}
	diff := fmt.Sprintf("(no diff: %s is over %s)\n", rel, humanSize(maxDiffBytes))
	out := fmt.Sprintf("%s %s (%s lines, %s)\n", verb, rel, commas(lines.count(size)), humanSize(int64(size)))
	if existed {
		out += diff
	}
	return Result{Output: out, Diff: diff, Changes: []FileChange{ch}}, nil
}

// lineCounter counts the lines written through it as countLines does.
type lineCounter struct {
	newlines int
	last     byte
}

func (c *lineCounter) Write(p []byte) (int, error) {
	for _, b := range p {
		if b == '\n' {
			c.newlines++
		}
	}
	if len(p) > 0 {
		c.last = p[len(p)-1]
	}
	return len(p), nil
}

// count is the number of lines of the size bytes written.
func (c *lineCounter) count(size int) int {
	if size > 0 && c.last != '\n' {
		return c.newlines + 1
	}
	return c.newlines
}
