package termtext

import (
	"io"
	"unicode/utf8"
)

// NewWriter returns a writer that passes everything written to it through
// Sanitize, for printers whose every line may carry text keel did not
// write. Each Write is sanitised on its own: a sequence split across two
// writes is neutralised in pieces, never passed on, so write whole values
// (one fmt.Fprintf per line does) to keep the markers where they belong.
func NewWriter(w io.Writer) io.Writer { return textWriter{w} }

type textWriter struct{ w io.Writer }

func (t textWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(t.w, Sanitize(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// NewJSONWriter returns a writer for JSON text that writes DEL and the C1
// controls U+0080–U+009F as \u escapes. encoding/json escapes the C0
// controls but writes these raw, and some terminals act on UTF-8 encoded
// C1 controls (U+009B is CSI) when JSON output is printed on them. The
// JSON means the same after the rewrite: those characters can only occur
// inside strings. Each Write must hold whole characters, as
// json.Encoder's (one per value) do.
func NewJSONWriter(w io.Writer) io.Writer { return jsonWriter{w} }

type jsonWriter struct{ w io.Writer }

func (j jsonWriter) Write(p []byte) (int, error) {
	if _, err := j.w.Write(EscapeJSONControls(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// EscapeJSONControls returns the JSON text p with DEL and the C1 controls
// written as \u escapes; p itself when it has none.
func EscapeJSONControls(p []byte) []byte {
	i := nextJSONControl(p, 0)
	if i < 0 {
		return p
	}
	const hex = "0123456789abcdef"
	out := make([]byte, 0, len(p)+16)
	start := 0
	for i >= 0 {
		r, size := utf8.DecodeRune(p[i:])
		out = append(out, p[start:i]...)
		out = append(out, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xf])
		start = i + size
		i = nextJSONControl(p, start)
	}
	return append(out, p[start:]...)
}

// nextJSONControl is the index of the next DEL or UTF-8 encoded C1 control
// in p from i, or -1.
func nextJSONControl(p []byte, i int) int {
	for ; i < len(p); i++ {
		switch {
		case p[i] == 0x7f:
			return i
		case p[i] == 0xc2 && i+1 < len(p) && p[i+1] >= 0x80 && p[i+1] <= 0x9f:
			return i
		}
	}
	return -1
}
