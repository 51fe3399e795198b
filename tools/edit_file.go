package tools

import (
	"context"
	"fmt"
	"strings"
)

type editFileParams struct {
	Path       string `json:"path" description:"File to edit: relative to the workspace root, absolute, or starting with ~."`
	OldString  string `json:"old_string" description:"Exact text to replace, copied from read_file output without the line-number prefix. Include enough surrounding lines to make it unique."`
	NewString  string `json:"new_string" description:"Replacement text (empty deletes old_string)."`
	ReplaceAll bool   `json:"replace_all,omitempty" description:"Replace every occurrence instead of requiring exactly one."`
}

const editFileDesc = `Replace text in an existing file and return a unified diff. Use it for every change to an existing file (not sed or write_file). The file must have been read with read_file in this session and not changed since. old_string must match exactly once; if it does not match exactly, a match ignoring indentation and trailing whitespace is used only when unique. On failure you get the closest candidates with line numbers.`

func newEditFile(ws *Workspace) Tool {
	return newTyped(NameEditFile, editFileDesc, Write, func(ctx context.Context, p editFileParams) (Result, error) {
		return editFile(ctx, ws, p)
	})
}

func editFile(ctx context.Context, ws *Workspace, p editFileParams) (Result, error) {
	abs, msg := resolveForWrite(ctx, ws, p.Path)
	if msg != "" {
		return errResult("%s", msg), nil
	}
	if fi, err := statAt(abs); err == nil && fi.Mode().IsRegular() && fi.Size() > largeFileBytes {
		return editLarge(ctx, ws, abs, p)
	}
	before, mode, existed, msg := statForWrite(ctx, ws, abs)
	rel := ws.Rel(abs)
	switch {
	case msg != "":
		return errResult("%s", msg), nil
	case !existed:
		return errResult("file not found: %s (resolved to %s); to create a file use write_file", rel, abs), nil
	case looksBinary(before):
		return errResult("%s is a binary file; edit_file changes text files only", rel), nil
	}
	if msg := ws.checkFresh(abs, before); msg != "" {
		return errResult("%s", msg), nil
	}
	text, old, new := string(before), p.OldString, p.NewString
	crlf := isCRLF(before)
	if crlf { // match and edit in LF, then restore the file's CRLF
		text, old, new = toLF(text), toLF(old), toLF(new)
	}
	plan := planEdit(text, old, new, p.ReplaceAll)
	if !plan.ok {
		return errResult("edit of %s not applied: %s", rel, plan.msg), nil
	}
	after := plan.result
	if crlf {
		after = strings.ReplaceAll(after, "\n", "\r\n")
	}
	return commitWrite(ctx, ws, abs, before, []byte(after), mode, true, editNote(plan))
}

func toLF(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

func editNote(p editPlan) string {
	switch {
	case p.tolerant:
		return fmt.Sprintf("; matched lines %d-%d ignoring indentation and trailing whitespace", p.from, p.to)
	case p.count > 1:
		return fmt.Sprintf("; replaced %d occurrences", p.count)
	}
	return ""
}
