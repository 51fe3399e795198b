package bigargs

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
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
func Digest[T text](lit T) (int, string) {
	h := sha256.New()
	n, _ := DecodeTo(lit, h)
	return n, hex.EncodeToString(h.Sum(nil))
}

// DecodeTo writes what the JSON string literal lit decodes to into w,
// through a 32 KiB buffer, and returns how many bytes that was.
func DecodeTo[T text](lit T, w io.Writer) (int, error) {
	var buf [32 << 10]byte
	n, at := 0, 0
	var err error
	flush := func(room int) {
		if at+room > len(buf) && err == nil {
			_, err = w.Write(buf[:at])
			at = 0
		}
	}
	putRune := func(r rune) {
		flush(utf8.UTFMax)
		k := utf8.EncodeRune(buf[at:], r)
		at, n = at+k, n+k
	}
	s := lit[1 : len(lit)-1]
	for i := 0; i < len(s) && err == nil; {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			r, size := escape(string(s[i:min(len(s), i+12)]))
			putRune(r)
			i += size
		case c < utf8.RuneSelf:
			j := i + 1
			for j < len(s) && s[j] != '\\' && s[j] < utf8.RuneSelf && j-i < 4096 {
				j++
			}
			flush(j - i)
			k := copy(buf[at:], s[i:j])
			at, n, i = at+k, n+k, j
		default:
			r, size := decodeRune(s[i:min(len(s), i+utf8.UTFMax)])
			putRune(r) // RuneError for a bad byte, as encoding/json
			i += size
		}
	}
	if err == nil && at > 0 {
		_, err = w.Write(buf[:at])
	}
	return n, err
}

func decodeRune[T text](s T) (rune, int) {
	var b [utf8.UTFMax]byte
	k := copy(b[:], s)
	return utf8.DecodeRune(b[:k])
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
