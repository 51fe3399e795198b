package tools

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// largeFileBytes is the size from which edit_file streams the file
// instead of holding it (and its diff, and its copies) in memory, and the
// datalog keeps the replaced pieces with hashes instead of both versions.
const largeFileBytes = 8 << 20

// scanChunk is how much of a large file is read at a time.
const scanChunk = 1 << 20

// maxSplices caps the replacements one large edit records, and
// maxSpliceBytes the text they keep (for undo and the datalog).
const (
	maxSplices     = 100000
	maxSpliceBytes = 4 << 20
)

// Splice is one replacement in a large file: Old at Offset (in the file
// before the edit) became New. Undo puts Old back.
type Splice struct {
	Offset int64  `json:"offset"`
	Line   int    `json:"line"` // 1-based line of Offset
	Old    string `json:"old"`
	New    string `json:"new"`
}

// fileScan is what one pass over a large file found.
type fileScan struct {
	offsets []int64
	lines   []int
	sum     []byte // SHA-256 of the whole file
}

// scanForEdit streams r, hashing it and finding old (not overlapping,
// like strings.Count), up to limit matches.
func scanForEdit(r io.Reader, old []byte, limit int) (fileScan, error) {
	return scanChunked(r, old, limit, scanChunk)
}

// scanChunked is scanForEdit reading chunk bytes at a time (tests use
// tiny chunks to cross every boundary).
func scanChunked(r io.Reader, old []byte, limit, chunk int) (fileScan, error) {
	var fs fileScan
	h := sha256.New()
	buf := make([]byte, chunk+len(old))
	keep, line, cursor, nextFrom := 0, 1, 0, 0
	var base int64 // file offset of buf[0]
	for {
		n, err := io.ReadFull(r, buf[keep:])
		h.Write(buf[keep : keep+n])
		end := keep + n
		for from := nextFrom; len(fs.offsets) < limit; {
			i := bytes.Index(buf[from:end], old)
			if i < 0 {
				break
			}
			at := from + i
			line += bytes.Count(buf[cursor:at], []byte("\n"))
			cursor = at
			fs.offsets, fs.lines = append(fs.offsets, base+int64(at)), append(fs.lines, line)
			from = at + len(old)
			nextFrom = from
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			fs.sum = h.Sum(nil)
			return fs, nil
		}
		if err != nil {
			return fs, err
		}
		keep = min(len(old)-1, end)
		line += bytes.Count(buf[cursor:end-keep], []byte("\n"))
		copy(buf, buf[end-keep:end])
		base += int64(end - keep)
		nextFrom = max(0, nextFrom-(end-keep))
		cursor = 0
	}
}

// hexVersion is Version's form of a full SHA-256.
func hexVersion(sum []byte) string { return hex.EncodeToString(sum[:8]) }

// editLarge applies an exact edit to a large file by streaming it twice:
// once to check it is fresh and find old_string, once to write the new
// file through the checked directory (a temp file and a rename).
func editLarge(ctx context.Context, ws *Workspace, abs string, p editFileParams) (Result, error) {
	rel := ws.Rel(abs)
	r, err := openDir(filepath.Dir(abs))
	if err != nil {
		return errResult("cannot edit %s: %v", rel, err), nil
	}
	defer r.Close()
	f, err := r.Open(filepath.Base(abs))
	if err != nil {
		return errResult("cannot read %s: %v", rel, err), nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return errResult("cannot read %s: %v", rel, err), nil
	}
	head := make([]byte, 8192)
	if n, _ := f.ReadAt(head, 0); looksBinary(head[:n]) {
		return errResult("%s is a binary file; edit_file changes text files only", rel), nil
	}
	old, repl := p.OldString, p.NewString
	scan, msg := findLarge(f, rel, &old, &repl, p.ReplaceAll)
	if msg != "" {
		return errResult("%s", msg), nil
	}
	if msg := ws.checkFreshVersion(abs, hexVersion(scan.sum)); msg != "" {
		return errResult("%s", msg), nil
	}
	splices := make([]Splice, len(scan.offsets))
	for i, off := range scan.offsets {
		splices[i] = Splice{Offset: off, Line: scan.lines[i], Old: old, New: repl}
	}
	ch := FileChange{Path: abs, Existed: true, Mode: uint32(fi.Mode().Perm()), Splices: splices,
		BeforeSHA256: hex.EncodeToString(scan.sum)}
	if msg := ws.record(ctx, &ch); msg != "" { // the new hash is known once written
		return errResult("%s", msg), nil
	}
	after, err := rewriteLarge(r, f, filepath.Base(abs), fi.Mode(), scan.sum, splices)
	if err != nil {
		return errResult("edit of %s not applied: %v", rel, err), nil
	}
	ch.AfterSHA256 = hex.EncodeToString(after)
	ws.MarkRead(abs, hexVersion(after))
	diff := spliceDiff(rel, splices)
	note := ""
	if len(splices) > 1 {
		note = fmt.Sprintf("; replaced %d occurrences", len(splices))
	}
	out := fmt.Sprintf("updated %s (%s, edited in place as a large file: exact matches only)%s\n%s", rel, humanSize(fi.Size()), note, diff)
	return Result{Output: out, Diff: diff, Changes: []FileChange{ch}}, nil
}

// findLarge finds old in f: exactly, or with CRLF line ends when the file
// has them (old and repl are converted then). It rewinds f.
func findLarge(f *os.File, rel string, old, repl *string, replaceAll bool) (fileScan, string) {
	if *old == "" || *old == *repl {
		return fileScan{}, "old_string must be non-empty and differ from new_string"
	}
	limit := 2
	if replaceAll {
		limit = maxSplices
	}
	scan, err := scanAt(f, []byte(*old), limit)
	if err == nil && len(scan.offsets) == 0 && strings.Contains(*old, "\n") && !strings.Contains(*old, "\r\n") {
		crlf := strings.ReplaceAll(*old, "\n", "\r\n")
		if s, err2 := scanAt(f, []byte(crlf), limit); err2 == nil && len(s.offsets) > 0 {
			scan, *old, *repl = s, crlf, strings.ReplaceAll(*repl, "\n", "\r\n")
		}
	}
	switch {
	case err != nil:
		return scan, fmt.Sprintf("cannot read %s: %v", rel, err)
	case len(scan.offsets) == 0:
		return scan, fmt.Sprintf("edit of %s not applied: old_string was not found; in files over %s edit_file matches exactly (no tolerance for indentation): copy the text from read_file exactly", rel, humanSize(largeFileBytes))
	case len(scan.offsets) > 1 && !replaceAll:
		return scan, fmt.Sprintf("edit of %s not applied: old_string occurs more than once (first at lines %d and %d); include more surrounding text to make it unique, or set replace_all", rel, scan.lines[0], scan.lines[1])
	case len(scan.offsets) == maxSplices || len(scan.offsets)*(len(*old)+len(*repl)) > maxSpliceBytes:
		return scan, fmt.Sprintf("edit of %s not applied: old_string occurs %d times or more, too many to keep for undo; use a command for a change this wide", rel, len(scan.offsets))
	}
	return scan, ""
}

func scanAt(f *os.File, old []byte, limit int) (fileScan, error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fileScan{}, err
	}
	return scanForEdit(f, old, limit)
}
