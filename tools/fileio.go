package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// looksBinary reports a NUL byte in the first 8 KiB, the test git and rg use.
func looksBinary(b []byte) bool {
	if len(b) > 8192 {
		b = b[:8192]
	}
	return bytes.IndexByte(b, 0) >= 0
}

// isCRLF reports whether every line break in b is CRLF (and there is one).
func isCRLF(b []byte) bool {
	n := bytes.Count(b, []byte("\n"))
	return n > 0 && bytes.Count(b, []byte("\r\n")) == n
}

// splitLines splits text into lines without their "\n"; a final newline
// does not start another line.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n") // substrings of s: no copy per line
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// commas formats n with thousands separators: 1250 -> "1,250".
func commas(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + commas(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// humanSize formats a byte count compactly: 512 B, 1.2 KB, 3.4 MB.
func humanSize(n int64) string {
	const k = 1024
	switch {
	case n < k:
		return fmt.Sprintf("%d B", n)
	case n < k*k:
		return fmt.Sprintf("%.1f KB", float64(n)/k)
	case n < k*k*k:
		return fmt.Sprintf("%.1f MB", float64(n)/(k*k))
	}
	return fmt.Sprintf("%.1f GB", float64(n)/(k*k*k))
}

// statForWrite returns the existing file's content and mode, or
// existed=false when path does not exist. A directory is an error message.
func statForWrite(ctx context.Context, w *Workspace, abs string) (content []byte, mode fs.FileMode, existed bool, msg string) {
	b, fi, err := readAt(abs, 0)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, 0o644, false, ""
	case err != nil:
		return nil, 0, false, fmt.Sprintf("cannot access %s: %v", w.Rel(abs), err)
	case fi.IsDir():
		return nil, 0, false, fmt.Sprintf("%s is a directory, not a file", w.Rel(abs))
	case !fi.Mode().IsRegular():
		return nil, 0, false, fmt.Sprintf("%s is not a regular file", w.Rel(abs))
	}
	return w.clientText(ctx, abs, b), fi.Mode(), true, ""
}
