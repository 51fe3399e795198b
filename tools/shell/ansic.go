package shell

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// ansiC decodes the body of a $'…' string as bash does: \n, \t, \e, \xHH,
// \uHHHH, octal \NNN, \cX and the quoted punctuation. An unknown escape
// keeps its backslash.
func ansiC(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		n := ansiCEscape(s[i:], &b)
		i += n - 1
	}
	return b.String()
}

var ansiCSimple = map[byte]byte{'a': 7, 'b': 8, 'e': 27, 'E': 27, 'f': 12, 'n': 10, 'r': 13, 't': 9, 'v': 11,
	'\\': '\\', '\'': '\'', '"': '"', '?': '?'}

// ansiCEscape writes the escape at the start of s (after its backslash)
// and returns how many bytes of s it used.
func ansiCEscape(s string, b *strings.Builder) int {
	c := s[0]
	if r, ok := ansiCSimple[c]; ok {
		b.WriteByte(r)
		return 1
	}
	switch {
	case c >= '0' && c <= '7':
		n := digits(s, 3, 8)
		v, _ := strconv.ParseUint(s[:n], 8, 16)
		b.WriteByte(byte(v))
		return n
	case c == 'x':
		return 1 + numericEscape(s[1:], 2, b, false)
	case c == 'u':
		return 1 + numericEscape(s[1:], 4, b, true)
	case c == 'U':
		return 1 + numericEscape(s[1:], 8, b, true)
	case c == 'c' && len(s) > 1:
		b.WriteByte(s[1] & 0x1f)
		return 2
	}
	b.WriteByte('\\')
	b.WriteByte(c)
	return 1
}

// numericEscape writes up to max hex digits of s as a byte or a rune; with
// no digits it writes the escape back as written.
func numericEscape(s string, max int, b *strings.Builder, asRune bool) int {
	n := digits(s, max, 16)
	if n == 0 {
		b.WriteByte('\\')
		b.WriteByte("xuU"[map[int]int{2: 0, 4: 1, 8: 2}[max]])
		return 0
	}
	v, _ := strconv.ParseUint(s[:n], 16, 32)
	switch {
	case !asRune:
		b.WriteByte(byte(v))
	case utf8.ValidRune(rune(v)):
		b.WriteRune(rune(v))
	}
	return n
}

// digits counts the leading digits of s in base, at most max.
func digits(s string, max, base int) int {
	n := 0
	for n < len(s) && n < max {
		if _, err := strconv.ParseUint(s[n:n+1], base, 8); err != nil {
			break
		}
		n++
	}
	return n
}
