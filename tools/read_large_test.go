package tools

import (
	"path/filepath"
	"strings"
	"testing"
)

// Streaming a page of a file gives exactly what reading it whole gives.
func TestReadLargeMatchesReadingWhole(t *testing.T) {
	long := strings.Repeat("x", readMaxLineChars+50)
	files := map[string]string{
		"plain":      "a\nb\nc\n",
		"no final":   "a\nb\nc",
		"crlf":       "a\r\nb\r\nc\r\n",
		"mixed ends": "a\r\nb\nc\r\n",
		"long line":  "short\n" + long + "\nend\n",
		"invalid":    "ok\n\xff\xfe bad\nok\n",
		"one line":   "just one",
		"blank":      "\n\n\n",
	}
	pages := []readFileParams{{}, {Offset: 2}, {Offset: 2, Limit: 1}, {Offset: 3, Limit: 10}, {Offset: 9}}
	ws := newTestWS(t, nil)
	for name, content := range files {
		p := filepath.Join(ws.Root(), strings.ReplaceAll(name, " ", "_"))
		writeTestFile(t, p, content)
		for _, pg := range pages {
			pg.Path = p
			want := numberLines(ws.Rel(p), p, Version([]byte(content)), []byte(content), pg)
			if pg.Offset > len(splitLines(content)) && len(splitLines(content)) > 0 {
				want = errResult("offset %d is past the end: %s has %s lines", pg.Offset, ws.Rel(p), commas(len(splitLines(content))))
			}
			got := readLarge(ws, p, pg)
			if got.Output != want.Output || got.IsError != want.IsError {
				t.Errorf("%s page %+v:\n got %q\nwant %q", name, pg, got.Output, want.Output)
			}
		}
	}
}
