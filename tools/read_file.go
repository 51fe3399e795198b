package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"unicode/utf8"
)

const (
	readDefaultLimit = 400
	readMaxLineChars = 2000
	readMaxFileBytes = 256 << 20 // beyond this, grep or run_command is the tool
)

type readFileParams struct {
	Path   string `json:"path" description:"File to read: relative to the workspace root, absolute, or starting with ~."`
	Offset int    `json:"offset,omitempty" description:"First line to return, 1-based (default 1). Use it to page through long files."`
	Limit  int    `json:"limit,omitempty" description:"Number of lines to return (default 400)."`
}

const readFileDesc = `Read a text file and return numbered lines. Use it before editing a file (edits require it) and to inspect code you located with grep or glob. Long files come in pages: the footer says which lines you got and how to read more. Binary files are refused; an image file (PNG, JPEG, GIF, WebP) comes back as an image you can see. Prefer reading the region you need over the whole file.`

func newReadFile(ws *Workspace) Tool {
	return newTyped(NameReadFile, readFileDesc, ReadOnly, func(ctx context.Context, p readFileParams) (Result, error) {
		return readFile(ctx, ws, p), nil
	})
}

func readFile(ctx context.Context, ws *Workspace, p readFileParams) Result {
	if strings.TrimSpace(p.Path) == "" {
		return errResult("path is required")
	}
	if p.Offset < 0 || p.Limit < 0 {
		return errResult("offset and limit must be positive (offset is a 1-based line number)")
	}
	abs, err := resolveCall(ctx, ws, p.Path)
	if err != nil {
		return errResult("cannot resolve %q: %v", p.Path, err)
	}
	// One open: a file over largeFileBytes comes back unread, and is
	// streamed by readLarge when it is not over readMaxFileBytes.
	data, fi, err := readAt(abs, largeFileBytes)
	if IsImagePath(abs) && (err == nil || errors.Is(err, errTooLarge)) && fi.Mode().IsRegular() {
		if res, ok := readImage(ws.Rel(abs), data, fi.Size(), err); ok {
			return res
		}
	}
	if errors.Is(err, errTooLarge) && fi.Size() <= readMaxFileBytes {
		return readLarge(ws, abs, p)
	}
	data, msg := explainRead(ws.Rel(abs), abs, data, fi, err)
	if msg != "" {
		return errResult("%s", msg)
	}
	data = ws.clientText(ctx, abs, data) // the editor's buffer, unsaved changes included
	v := Version(data)
	ws.MarkRead(abs, v)
	return numberLines(ws.Rel(abs), abs, v, data, p)
}

// readImage returns an image file as image input for the model, with a
// line that names it; ok is false for a file whose bytes are not an image
// (read as text, or refused as binary, as any other file).
func readImage(rel string, data []byte, size int64, err error) (Result, bool) {
	if err != nil {
		return errResult("%s is an image of %d bytes, larger than the %s a model takes", rel, size, humanSize(MaxImageBytes)), true
	}
	im, ierr := NewImage(data, rel)
	if ierr != nil {
		return Result{}, false
	}
	out := fmt.Sprintf("%s: %s, %s, %s; the image itself goes to you as image input when your model accepts images",
		rel, im.Label(), im.MIME, humanSize(size))
	return Result{Output: out, Images: []Image{im}}, true
}

// explainRead says why what readAt returned for abs is not text to show,
// or returns the text.
func explainRead(rel, abs string, data []byte, fi fs.FileInfo, err error) ([]byte, string) {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Sprintf("file not found: %s (resolved to %s); use glob or list_dir to find the right path", rel, abs)
	case errors.Is(err, errTooLarge):
		return nil, fmt.Sprintf("%s is %s, too large to read; use grep to find the lines you need", rel, humanSize(fi.Size()))
	case err != nil:
		return nil, fmt.Sprintf("cannot read %s: %v", rel, err)
	case fi.IsDir():
		return nil, fmt.Sprintf("%s is a directory; use list_dir to see its entries", rel)
	case !fi.Mode().IsRegular():
		return nil, fmt.Sprintf("%s is not a regular file", rel)
	case looksBinary(data):
		return nil, fmt.Sprintf("%s is a binary file (%s); read_file shows text only", rel, humanSize(int64(len(data))))
	}
	return data, ""
}

func numberLines(rel, abs, version string, data []byte, p readFileParams) Result {
	lines := splitLines(string(data))
	total := len(lines)
	if total == 0 {
		return Result{Output: rel + " is empty (0 bytes)", Reads: []ReadSpan{{Path: abs, Version: version, From: 1, To: 0, Total: 0}}}
	}
	from, limit := max(p.Offset, 1), p.Limit
	if limit == 0 {
		limit = readDefaultLimit
	}
	if from > total {
		return errResult("offset %d is past the end: %s has %s lines", from, rel, commas(total))
	}
	to := min(from+limit-1, total)
	var b strings.Builder
	b.Grow(len(data) + 8*(to-from+1) + 64)
	if !utf8.Valid(data) {
		b.WriteString("note: this file is not valid UTF-8; invalid bytes are shown as \\xNN and edit_file cannot match them\n")
	}
	var num []byte
	for i := from; i <= to; i++ {
		num = appendLineNumber(num[:0], i)
		b.Write(num)
		b.WriteString(displayLine(lines[i-1]))
		b.WriteByte('\n')
	}
	b.WriteString(readFooter(from, to, total, isCRLF(data), data[len(data)-1] != '\n'))
	return Result{Output: b.String(), Reads: []ReadSpan{{Path: abs, Version: version, From: from, To: to, Total: total}}}
}

// appendLineNumber appends n right-aligned in six columns and a tab, as
// fmt's "%6d\t" would, without fmt's cost on every line of a read.
func appendLineNumber(buf []byte, n int) []byte {
	var digits [20]byte
	d := strconv.AppendInt(digits[:0], int64(n), 10)
	for pad := 6 - len(d); pad > 0; pad-- {
		buf = append(buf, ' ')
	}
	return append(append(buf, d...), '\t')
}

// displayLine drops a CR, escapes invalid UTF-8 and caps very long lines.
func displayLine(l string) string {
	l = strings.TrimSuffix(l, "\r")
	if !utf8.ValidString(l) {
		l = escapeInvalid(l)
	}
	if len(l) > readMaxLineChars {
		cut := len(l) - readMaxLineChars
		l = l[:readMaxLineChars] + fmt.Sprintf("… [line truncated: %s more bytes]", commas(cut))
	}
	return l
}

func escapeInvalid(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			fmt.Fprintf(&b, "\\x%02X", s[i])
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func readFooter(from, to, total int, crlf, noFinalNewline bool) string {
	var notes []string
	if from == 1 && to == total {
		notes = append(notes, fmt.Sprintf("all %s lines", commas(total)))
	} else {
		notes = append(notes, fmt.Sprintf("lines %s-%s of %s", commas(from), commas(to), commas(total)))
	}
	if to < total {
		notes = append(notes, fmt.Sprintf("%s more; continue with offset=%d", commas(total-to), to+1))
	}
	if crlf {
		notes = append(notes, "CRLF line endings (edits keep them)")
	}
	if noFinalNewline && to == total {
		notes = append(notes, "no newline at end of file")
	}
	return "(" + strings.Join(notes, "; ") + ")\n"
}
