// Package bigargs shortens a tool call's JSON arguments that are too large
// to keep: a 50 MB write_file content re-sent with every later request
// would cost memory and tokens no model can hold (issue 26). The object's
// small members are kept byte for byte; each long string value becomes a
// notice saying what was cut (its size and SHA-256), so the history, the
// datalog and `keel log show` stay truthful. It scans the raw JSON text
// without decoding it into memory, so shortening costs no copy of the
// content. It imports only the standard library.
package bigargs

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
)

// Elided describes one string value that was cut.
type Elided struct {
	Key    string // the member's name
	Bytes  int    // the decoded value's length in bytes
	SHA256 string // hex digest of the decoded value
}

// Shorten returns args with every top-level string value longer than
// keep bytes (as written) replaced by notice's text, when args are longer
// than limit; otherwise args unchanged and false. Arguments that are not
// a JSON object, or still longer than limit once shortened, become an
// object holding one notice for the whole text (key "elided_by_keel").
// path is the top-level "path" member, when it is a short string, for the
// notice.
func Shorten(args string, limit, keep int, notice func(e Elided, path string) string) (string, bool) {
	if len(args) <= limit {
		return args, false
	}
	ms, ok := members(args)
	if !ok || !json.Valid([]byte(args)) {
		return whole(args, notice), true
	}
	path := ""
	for _, m := range ms {
		if m.key == "path" && m.str && m.end-m.start <= keep {
			path = unquote(args[m.start:m.end])
		}
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(args[m.keyStart:m.keyEnd])
		b.WriteByte(':')
		v := args[m.start:m.end]
		if m.str && len(v) > keep {
			n, sum := Digest(v)
			enc, _ := json.Marshal(notice(Elided{Key: m.key, Bytes: n, SHA256: sum}, path))
			b.Write(enc)
			continue
		}
		b.WriteString(v)
	}
	b.WriteByte('}')
	if b.Len() > limit {
		return whole(args, notice), true
	}
	return b.String(), true
}

// whole replaces the whole text with one notice.
func whole(args string, notice func(Elided, string) string) string {
	h := sha256.New()
	HashString(h, args)
	enc, _ := json.Marshal(map[string]string{"elided_by_keel": notice(Elided{Bytes: len(args), SHA256: hex.EncodeToString(h.Sum(nil))}, "")})
	return string(enc)
}

// text is JSON text, as the agent (string) or a tool (bytes) holds it.
type text interface{ ~string | ~[]byte }

// Skeleton is args with every top-level string value longer than keep
// bytes (as written) replaced by "": small enough to decode strictly
// (unknown fields, types) before the whole is decoded loosely. ok is
// false when args are not one JSON object.
func Skeleton(args []byte, keep int) (string, bool) {
	ms, ok := members(args)
	if !ok {
		return "", false
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(args[m.keyStart:m.keyEnd])
		b.WriteByte(':')
		if v := args[m.start:m.end]; !m.str || len(v) <= keep {
			b.Write(v)
		} else {
			b.WriteString(`""`)
		}
	}
	b.WriteByte('}')
	return b.String(), true
}

// Member returns the raw text of args' top-level member key (a string
// literal keeps its quotes), and whether there is one.
func Member(args []byte, key string) ([]byte, bool) {
	ms, ok := members(args)
	if !ok {
		return nil, false
	}
	for _, m := range ms {
		if m.key == key {
			return args[m.start:m.end], true
		}
	}
	return nil, false
}

// member is one top-level member: the spans of its key literal and value.
type member struct {
	key              string
	keyStart, keyEnd int
	start, end       int
	str              bool // the value is a string literal
}

// members splits a JSON object's text into its members; ok is false when
// the text is not one well-formed object.
func members[T text](s T) ([]member, bool) {
	i := skipSpace(s, 0)
	if i >= len(s) || s[i] != '{' {
		return nil, false
	}
	i = skipSpace(s, i+1)
	var out []member
	if i < len(s) && s[i] == '}' {
		return out, skipSpace(s, i+1) == len(s)
	}
	for {
		var m member
		if i >= len(s) || s[i] != '"' {
			return nil, false
		}
		m.keyStart = i
		if i = stringEnd(s, i); i < 0 {
			return nil, false
		}
		m.keyEnd, m.key = i, unquote(s[m.keyStart:i])
		if i = skipSpace(s, i); i >= len(s) || s[i] != ':' {
			return nil, false
		}
		m.start = skipSpace(s, i+1)
		if m.end = valueEnd(s, m.start); m.end < 0 {
			return nil, false
		}
		m.str = s[m.start] == '"'
		out = append(out, m)
		if i = skipSpace(s, m.end); i >= len(s) {
			return nil, false
		}
		switch s[i] {
		case ',':
			i = skipSpace(s, i+1)
		case '}':
			return out, skipSpace(s, i+1) == len(s)
		default:
			return nil, false
		}
	}
}

func skipSpace[T text](s T, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index just past the string literal starting at
// s[i] == '"', or -1.
func stringEnd[T text](s T, i int) int {
	for i++; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// valueEnd returns the index just past the value starting at i, or -1.
// Values other than strings are only delimited here, not validated:
// json.Valid checks the result where it matters.
func valueEnd[T text](s T, i int) int {
	if i >= len(s) {
		return -1
	}
	if s[i] == '"' {
		return stringEnd(s, i)
	}
	depth := 0
	for ; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			if i = stringEnd(s, i); i < 0 {
				return -1
			}
			i--
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i
			}
			if depth--; depth == 0 {
				return i + 1
			}
		case ',':
			if depth == 0 {
				return i
			}
		}
	}
	if depth != 0 {
		return -1
	}
	return i
}

// unquote decodes a short string literal ("" when it does not decode).
func unquote[T text](lit T) string {
	var v string
	if json.Unmarshal([]byte(lit), &v) != nil {
		return ""
	}
	return v
}
