package bigargs

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"unicode/utf16"
	"unicode/utf8"
)

// HashString writes s to h in pieces, so a large string is never copied
// whole into a []byte.
func HashString(h hash.Hash, s string) {
	var buf [32 << 10]byte
	for len(s) > 0 {
		n := copy(buf[:], s)
		h.Write(buf[:n])
		s = s[n:]
	}
}

// Digest returns the length in bytes and the hex SHA-256 of what the JSON
// string literal lit (quotes included) decodes to, as encoding/json
// decodes it (invalid UTF-8 and lone surrogates become U+FFFD), without
// holding the decoded text: it is hashed through a small buffer.
func Digest(lit string) (int, string) {
	h := sha256.New()
	n := 0
	var buf [32 << 10]byte
	w := 0
	flush := func(room int) {
		if w+room > len(buf) {
			h.Write(buf[:w])
			w = 0
		}
	}
	put := func(p string) { // len(p) <= 4096
		flush(len(p))
		w += copy(buf[w:], p)
		n += len(p)
	}
	putRune := func(r rune) {
		flush(utf8.UTFMax)
		k := utf8.EncodeRune(buf[w:], r)
		w, n = w+k, n+k
	}
	s := lit[1 : len(lit)-1]
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			r, size := escape(s[i:])
			putRune(r)
			i += size
		case c < utf8.RuneSelf:
			j := i + 1
			for j < len(s) && s[j] != '\\' && s[j] < utf8.RuneSelf && j-i < 4096 {
				j++
			}
			put(s[i:j])
			i = j
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			putRune(r) // RuneError for a bad byte, as encoding/json
			i += size
		}
	}
	h.Write(buf[:w])
	return n, hex.EncodeToString(h.Sum(nil))
}

// escape decodes the escape sequence at the start of s and returns the
// rune and how many bytes it took.
func escape(s string) (rune, int) {
	switch s[1] {
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	case 'n':
		return '\n', 2
	case 'r':
		return '\r', 2
	case 't':
		return '\t', 2
	case 'u':
		r, ok := hex4(s[2:])
		if !ok {
			return utf8.RuneError, 2
		}
		if utf16.IsSurrogate(r) {
			if len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
				if r2, ok := hex4(s[8:]); ok {
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						return dec, 12
					}
				}
			}
			return utf8.RuneError, 6
		}
		return r, 6
	}
	return rune(s[1]), 2 // \" \\ \/
}

func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[:4]) {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
