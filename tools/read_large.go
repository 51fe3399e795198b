package tools

import (
	"bufio"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// readLarge reads a page of a large file by streaming it: only the lines
// asked for are kept, while the whole file is hashed (for the freshness
// check of later edits) and its lines and line ends counted.
func readLarge(ws *Workspace, abs string, p readFileParams) Result {
	rel := ws.Rel(abs)
	f, err := openChecked(abs)
	if err != nil {
		return errResult("cannot read %s: %v", rel, err)
	}
	defer f.Close()
	head := make([]byte, 8192)
	if n, _ := f.ReadAt(head, 0); looksBinary(head[:n]) {
		return errResult("%s is a binary file; read_file shows text only", rel)
	}
	from, limit := max(p.Offset, 1), p.Limit
	if limit == 0 {
		limit = readDefaultLimit
	}
	pg, err := streamPage(f, from, from+limit-1)
	if err != nil {
		return errResult("cannot read %s: %v", rel, err)
	}
	v := hexVersion(pg.sum)
	ws.MarkRead(abs, v)
	if from > pg.total {
		return errResult("offset %d is past the end: %s has %s lines", from, rel, commas(pg.total))
	}
	to := min(from+limit-1, pg.total)
	var b strings.Builder
	if pg.invalidUTF8 {
		b.WriteString("note: this file is not valid UTF-8; invalid bytes are shown as \\xNN and edit_file cannot match them\n")
	}
	for i, l := range pg.lines {
		fmt.Fprintf(&b, "%6d\t%s\n", from+i, l)
	}
	crlf := pg.newlines > 0 && pg.crlfs == pg.newlines
	b.WriteString(readFooter(from, to, pg.total, crlf, !pg.finalNewline))
	return Result{Output: b.String(), Reads: []ReadSpan{{Path: abs, Version: v, From: from, To: to, Total: pg.total}}}
}

// page is one pass over a file.
type page struct {
	lines           []string // lines from..to, display-ready
	total           int
	newlines, crlfs int
	finalNewline    bool
	invalidUTF8     bool
	sum             []byte
}

// streamPage reads r once, keeping lines from..to (1-based).
func streamPage(r io.Reader, from, to int) (page, error) {
	var pg page
	h := sha256.New()
	br := bufio.NewReaderSize(io.TeeReader(r, h), 1<<20)
	var cur []byte     // the current line, cut past readMaxLineChars
	size, line := 0, 1 // the current line's full length, and its number
	endsCR := false    // the last chunk ended in "\r" (a CRLF split by the buffer)
	for {
		chunk, err := br.ReadSlice('\n')
		size += len(chunk)
		if line >= from && line <= to && len(cur) <= readMaxLineChars {
			cur = append(cur, chunk[:min(len(chunk), readMaxLineChars+1-len(cur))]...)
		}
		if !utf8.Valid(chunk) {
			pg.invalidUTF8 = true // a rune cut by the buffer in a line over 1 MB also counts: rare, and only a note
		}
		if n := len(chunk); n > 0 && chunk[n-1] == '\n' {
			pg.newlines++
			eol := 1
			if n > 1 && chunk[n-2] == '\r' || n == 1 && endsCR {
				pg.crlfs++
				eol = 2
			}
			pg.keep(line, from, to, cur, size-eol)
			cur, size, line = cur[:0], 0, line+1
		}
		if n := len(chunk); n > 0 {
			endsCR = chunk[n-1] == '\r'
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull) || err == nil:
			continue
		case !errors.Is(err, io.EOF):
			return pg, err
		}
		pg.total, pg.finalNewline = line-1, size == 0
		if size > 0 { // a last line without a newline
			pg.keep(line, from, to, cur, size)
			pg.total = line
		}
		pg.sum = h.Sum(nil)
		return pg, nil
	}
}

// keep stores line number n, of length size without its line end, when
// it is in the page.
func (pg *page) keep(n, from, to int, b []byte, size int) {
	if n < from || n > to {
		return
	}
	s := strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
	if !utf8.ValidString(s) {
		s = escapeInvalid(s)
	}
	if size > readMaxLineChars {
		s = s[:min(len(s), readMaxLineChars)] + fmt.Sprintf("… [line truncated: %s more bytes]", commas(size-readMaxLineChars))
	}
	pg.lines = append(pg.lines, s)
}
