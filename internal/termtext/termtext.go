// Package termtext makes text keel did not write (the model's answers, tool
// output, file content, arguments) safe to print on a terminal: Sanitize
// removes escape sequences and control characters, so such text can never
// set the clipboard, retitle the window, clear or redraw the screen, or hide
// part of itself. NewWriter applies it to a printer's output; NewJSONWriter
// escapes the control characters encoding/json leaves raw; Duration shows
// how long a call took, the same in the TUI and in keel -p. It imports
// only the standard library, so ui, agent and agent/datalog may all use it.
package termtext

import (
	"strings"
	"unicode/utf8"
)

// Marker stands where Sanitize removed an escape sequence that acts on the
// terminal, so a reader sees that the text tried to and where.
const Marker = "␛" // U+241B SYMBOL FOR ESCAPE

// Sanitize returns s made safe to print on a terminal. What it does, and why:
//
//   - SGR sequences (colours and attributes, CSI ... m) are removed without
//     trace: they hide nothing once gone, and coloured tool output is common.
//   - Every other escape sequence becomes one Marker (adjacent ones share
//     one): CSI (cursor moves, erase, modes), OSC up to BEL or ST (window
//     titles, OSC 52 clipboard writes, hyperlinks), DCS, SOS, PM and APC
//     strings, two-byte escapes (ESC c resets the terminal, ESC ( 0 switches
//     character sets), a bare ESC, and the C1 controls U+0080–U+009F (CSI
//     and the string introducers as the sequences they start), whether
//     UTF-8 encoded or raw bytes in invalid UTF-8. A string introducer with
//     no terminator before the end of s becomes the Marker and what follows
//     it stays as text: nothing is hidden because a sequence never ended.
//   - CR LF becomes LF, and so does a lone CR: text a CR would have
//     overwritten stays in sight on a line of its own.
//   - Other C0 controls (BEL, BS, VT, FF, SO, SI, NUL, ...) and DEL are
//     removed: once they are gone, the text they would have hidden or moved
//     is in plain sight, and binary content does not fill the screen with
//     marks.
//   - Invalid UTF-8 bytes become U+FFFD.
//
// The result is valid UTF-8 with no byte below 0x20 but "\n" and "\t", no
// DEL and no C1 control, so Sanitize(Sanitize(s)) == Sanitize(s), and
// pieces sanitised apart stay safe when printed together. Printable text,
// non-ASCII included, is unchanged. It takes time linear in len(s) (one
// pass, plus at most one look ahead for a string terminator that is not
// there), and returns s itself, without allocating, when nothing changes.
func Sanitize(s string) string {
	i := firstUnsafe(s)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(Marker))
	b.WriteString(s[:i])
	z := sanitizer{s: s, out: &b, markEnd: -1}
	z.run(i)
	return b.String()
}

// safeByte reports whether c is printed as is: printable ASCII, LF or TAB.
func safeByte(c byte) bool { return safeBytes[c] }

var safeBytes = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = true
	}
	t['\n'], t['\t'] = true, true
	return t
}()

// isC1 reports whether r is a C1 control.
func isC1(r rune) bool { return r >= 0x80 && r <= 0x9f }

// firstUnsafe is the index of the first byte Sanitize must change, or len(s).
func firstUnsafe(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if safeByte(c) {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			return i
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || isC1(r) {
			return i
		}
		i += size
	}
	return len(s)
}

// sanitizer is one run of Sanitize over s.
type sanitizer struct {
	s           string
	out         *strings.Builder
	markEnd     int  // out.Len() right after the last Marker written, -1 for none
	noStringEnd bool // no string terminator after the last string scanned: none later either
}

// mark writes the Marker unless one was the last thing written.
func (z *sanitizer) mark() {
	if z.out.Len() != z.markEnd {
		z.out.WriteString(Marker)
		z.markEnd = z.out.Len()
	}
}

func (z *sanitizer) run(i int) {
	s := z.s
	for i < len(s) {
		c := s[i]
		switch {
		case safeByte(c):
			j := i + 1
			for j < len(s) && safeByte(s[j]) {
				j++
			}
			z.out.WriteString(s[i:j])
			i = j
		case c == '\r':
			z.out.WriteByte('\n')
			i++
			if i < len(s) && s[i] == '\n' {
				i++
			}
		case c == 0x1b:
			i = z.escape(i + 1)
		case c < utf8.RuneSelf: // the other C0 controls and DEL
			i++
		default:
			i = z.nonASCII(i)
		}
	}
}

// nonASCII handles the rune at i (a byte >= 0x80) and returns where the
// next one starts.
func (z *sanitizer) nonASCII(i int) int {
	r, size := utf8.DecodeRuneInString(z.s[i:])
	switch {
	case isC1(r):
		return z.c1(byte(r), i+size)
	case r == utf8.RuneError && size == 1:
		if c := z.s[i]; isC1(rune(c)) { // a raw C1 byte
			return z.c1(c, i+1)
		}
		z.out.WriteString(string(utf8.RuneError))
		return i + 1
	}
	z.out.WriteString(z.s[i : i+size])
	return i + size
}

// c1 handles the C1 control c, whose encoding ends before j.
func (z *sanitizer) c1(c byte, j int) int {
	switch c {
	case 0x9b: // CSI
		return z.csi(j)
	case 0x90, 0x98, 0x9d, 0x9e, 0x9f: // DCS, SOS, OSC, PM, APC
		return z.str(j)
	}
	z.mark()
	return j
}

// escape handles what follows an ESC at j-1 and returns where the text
// resumes.
func (z *sanitizer) escape(j int) int {
	s := z.s
	if j < len(s) {
		switch c := s[j]; {
		case c == '[':
			return z.csi(j + 1)
		case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
			return z.str(j + 1)
		case c >= 0x20 && c <= 0x2f: // intermediates, then a final byte
			for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
				j++
			}
			if j < len(s) && s[j] >= 0x30 && s[j] <= 0x7e {
				j++
			}
		case c >= 0x30 && c <= 0x7e: // a two-byte escape
			j++
		}
	}
	z.mark() // and a bare ESC leaves what follows it to be read as text
	return j
}

// csi skips a control sequence's parameters, intermediates and final byte
// from j. SGR leaves nothing; anything else, complete or not, the Marker.
func (z *sanitizer) csi(j int) int {
	s := z.s
	sgr := true
	for ; j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f; j++ {
		if s[j] < '0' || s[j] > ';' { // not a digit, ':' or ';'
			sgr = false
		}
	}
	if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
		if !sgr || s[j] != 'm' {
			z.mark()
		}
		return j + 1
	}
	z.mark()
	return j
}

// str skips a control string (OSC, DCS, SOS, PM, APC) starting at j up to
// its terminator: BEL, ST (ESC \ or C1 ST), CAN or SUB, or any other ESC,
// which starts the next sequence. Without one, only the introducer goes.
func (z *sanitizer) str(j int) int {
	z.mark()
	if z.noStringEnd {
		return j
	}
	s := z.s
	for k := j; k < len(s); {
		c := s[k]
		switch {
		case c == 0x07 || c == 0x18 || c == 0x1a:
			return k + 1
		case c == 0x1b:
			if k+1 < len(s) && s[k+1] == '\\' {
				return k + 2
			}
			return k
		case c < utf8.RuneSelf:
			k++
		default:
			r, size := utf8.DecodeRuneInString(s[k:])
			if r == 0x9c || (c == 0x9c && size == 1) {
				return k + size
			}
			k += size
		}
	}
	z.noStringEnd = true // what follows j has no terminator for later strings either
	return j
}
