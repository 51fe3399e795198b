package llm

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// A real answer streams hundreds of chunks, and encoding/json's
// reflection cost several microseconds each. fastDecodeChunk reads the
// shape servers send without reflection. Wherever encoding/json's answer
// would take more care to match (escaped, case-folded or repeated keys, a
// number that is not a plain integer, invalid UTF-8, a surrogate escape,
// an unexpected type, deep nesting) it gives up, and decodeChunk asks
// encoding/json, so the two always agree (FuzzFastDecodeChunk).

// maxSkipDepth bounds the nesting of a skipped value; deeper input is left
// to encoding/json.
const maxSkipDepth = 512

// fastDecodeChunk decodes raw into c, reporting false when it gave up (c
// is then undefined).
func fastDecodeChunk(raw []byte, c *chunk) bool {
	s := &scan{b: raw}
	*c = chunk{}
	ok := s.object(func(key string) bool {
		switch key {
		case "choices":
			return array(s, &c.Choices, s.choice)
		case "usage":
			return s.nullOr(func() bool { c.Usage = &wireUsage{}; return s.usage(c.Usage) })
		}
		return s.unknown(key, "choices", "usage")
	})
	s.ws()
	return ok && s.i == len(s.b)
}

func (s *scan) choice(ch *chunkChoice) bool {
	return s.object(func(key string) bool {
		switch key {
		case "index":
			return s.intInto(&ch.Index)
		case "delta":
			return s.nullOr(func() bool { return s.delta(&ch.Delta) })
		case "finish_reason":
			return s.strInto(&ch.FinishReason)
		}
		return s.unknown(key, "index", "delta", "finish_reason")
	})
}

func (s *scan) delta(d *chunkDelta) bool {
	return s.object(func(key string) bool {
		switch key {
		case "content":
			return s.strInto(&d.Content)
		case "reasoning_content":
			return s.strInto(&d.ReasoningContent)
		case "reasoning":
			return s.strInto(&d.Reasoning)
		case "tool_calls":
			return array(s, &d.ToolCalls, s.toolCall)
		}
		return s.unknown(key, "content", "reasoning_content", "reasoning", "tool_calls")
	})
}

func (s *scan) toolCall(tc *toolCallDelta) bool {
	return s.object(func(key string) bool {
		switch key {
		case "index":
			return s.nullOr(func() bool { tc.Index = new(int); return s.intInto(tc.Index) })
		case "id":
			return s.strInto(&tc.ID)
		case "function":
			return s.nullOr(func() bool {
				return s.object(func(key string) bool {
					switch key {
					case "name":
						return s.strInto(&tc.Function.Name)
					case "arguments":
						return s.strInto(&tc.Function.Arguments)
					}
					return s.unknown(key, "name", "arguments")
				})
			})
		}
		return s.unknown(key, "index", "id", "function")
	})
}

func (s *scan) usage(u *wireUsage) bool {
	return s.object(func(key string) bool {
		switch key {
		case "prompt_tokens":
			return s.intInto(&u.PromptTokens)
		case "completion_tokens":
			return s.intInto(&u.CompletionTokens)
		case "prompt_cache_hit_tokens":
			return s.intInto(&u.PromptCacheHitTokens)
		case "prompt_tokens_details":
			return s.nullOr(func() bool {
				u.PromptTokensDetails = &struct {
					CachedTokens int `json:"cached_tokens"`
				}{}
				return s.object(func(key string) bool {
					if key == "cached_tokens" {
						return s.intInto(&u.PromptTokensDetails.CachedTokens)
					}
					return s.unknown(key, "cached_tokens")
				})
			})
		}
		return s.unknown(key, "prompt_tokens", "completion_tokens", "prompt_cache_hit_tokens", "prompt_tokens_details")
	})
}

// scan is a cursor over one JSON text.
type scan struct {
	b []byte
	i int
}

func (s *scan) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek is the next byte after white space, or 0 at the end.
func (s *scan) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// object reads an object, calling field for each key with the cursor on
// its value. A key seen twice gives up (encoding/json merges repeats).
func (s *scan) object(field func(key string) bool) bool {
	if s.peek() != '{' {
		return false
	}
	s.i++
	var seenBuf [8]string
	seen := seenBuf[:0]
	if s.peek() == '}' {
		s.i++
		return true
	}
	for {
		if s.peek() != '"' {
			return false
		}
		key, ok := s.plainKey()
		if !ok || slicesContains(seen, key) {
			return false
		}
		seen = append(seen, key)
		if s.peek() != ':' {
			return false
		}
		s.i++
		s.ws()
		if !field(key) {
			return false
		}
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return true
		default:
			return false
		}
	}
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// plainKey reads a key of printable ASCII without escapes.
func (s *scan) plainKey() (string, bool) {
	start := s.i + 1
	for j := start; j < len(s.b); j++ {
		switch c := s.b[j]; {
		case c == '"':
			s.i = j + 1
			return string(s.b[start:j]), true
		case c == '\\' || c < 0x20 || c >= utf8.RuneSelf:
			return "", false
		}
	}
	return "", false
}

// unknown skips the value of a key this decoder does not use, giving up
// when encoding/json would match the key to a known one regardless of case.
func (s *scan) unknown(key string, known ...string) bool {
	for _, k := range known {
		if strings.EqualFold(key, k) {
			return false
		}
	}
	return s.skip(0)
}

// nullOr reads null (leaving the field as it is) or calls value.
func (s *scan) nullOr(value func() bool) bool {
	if s.literal("null") {
		return true
	}
	return value()
}

// array reads null or an array of objects into *out (a null element is a
// zero one, as encoding/json has it).
func array[T any](s *scan, out *[]T, elem func(*T) bool) bool {
	if s.literal("null") {
		return true
	}
	if s.peek() != '[' {
		return false
	}
	s.i++
	list := []T{}
	if s.peek() == ']' {
		s.i++
		*out = list
		return true
	}
	for {
		var v T
		if !s.literal("null") && !elem(&v) {
			return false
		}
		list = append(list, v)
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			*out = list
			return true
		default:
			return false
		}
	}
}

func (s *scan) literal(lit string) bool {
	s.ws()
	if len(s.b)-s.i < len(lit) {
		return false
	}
	for k := range len(lit) {
		if s.b[s.i+k] != lit[k] {
			return false
		}
	}
	s.i += len(lit)
	return true
}

// strInto reads null (no change) or a string.
func (s *scan) strInto(dst *string) bool {
	if s.literal("null") {
		return true
	}
	if s.peek() != '"' {
		return false
	}
	v, ok := s.str()
	*dst = v
	return ok
}

// str reads a string at the cursor, decoding the escapes encoding/json
// decodes the same way; a surrogate escape or invalid UTF-8 gives up.
func (s *scan) str() (string, bool) {
	start := s.i + 1
	j := start
	for j < len(s.b) && s.b[j] != '"' && s.b[j] != '\\' && s.b[j] >= 0x20 {
		j++
	}
	if j < len(s.b) && s.b[j] == '"' {
		raw := s.b[start:j]
		if !utf8.Valid(raw) {
			return "", false
		}
		s.i = j + 1
		return string(raw), true
	}
	return s.escapedStr(start)
}

func (s *scan) escapedStr(start int) (string, bool) {
	out := make([]byte, 0, 64)
	for j := start; j < len(s.b); {
		c := s.b[j]
		switch {
		case c == '"':
			if !utf8.Valid(out) {
				return "", false
			}
			s.i = j + 1
			return string(out), true
		case c < 0x20:
			return "", false
		case c != '\\':
			out = append(out, c)
			j++
			continue
		}
		if j+1 >= len(s.b) {
			return "", false
		}
		switch e := s.b[j+1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			if j+6 > len(s.b) {
				return "", false
			}
			r, err := strconv.ParseUint(string(s.b[j+2:j+6]), 16, 32)
			if err != nil || (r >= 0xD800 && r < 0xE000) {
				return "", false
			}
			out = utf8.AppendRune(out, rune(r))
			j += 6
			continue
		default:
			return "", false
		}
		j += 2
	}
	return "", false
}

// intInto reads null (no change) or a plain integer.
func (s *scan) intInto(dst *int) bool {
	if s.literal("null") {
		return true
	}
	start := s.i
	end, ok := s.number()
	if !ok {
		return false
	}
	for _, c := range s.b[start:end] {
		if c == '.' || c == 'e' || c == 'E' {
			return false
		}
	}
	n, err := strconv.ParseInt(string(s.b[start:end]), 10, 64)
	if err != nil {
		return false
	}
	*dst = int(n)
	return true
}

// number moves past a JSON number and returns where it ends.
func (s *scan) number() (int, bool) {
	j := s.i
	if j < len(s.b) && s.b[j] == '-' {
		j++
	}
	switch {
	case j < len(s.b) && s.b[j] == '0':
		j++
	case j < len(s.b) && '1' <= s.b[j] && s.b[j] <= '9':
		for j < len(s.b) && isDigitByte(s.b[j]) {
			j++
		}
	default:
		return 0, false
	}
	if j < len(s.b) && s.b[j] == '.' {
		j++
		if j >= len(s.b) || !isDigitByte(s.b[j]) {
			return 0, false
		}
		for j < len(s.b) && isDigitByte(s.b[j]) {
			j++
		}
	}
	if j < len(s.b) && (s.b[j] == 'e' || s.b[j] == 'E') {
		j++
		if j < len(s.b) && (s.b[j] == '+' || s.b[j] == '-') {
			j++
		}
		if j >= len(s.b) || !isDigitByte(s.b[j]) {
			return 0, false
		}
		for j < len(s.b) && isDigitByte(s.b[j]) {
			j++
		}
	}
	s.i = j
	return j, true
}

func isDigitByte(c byte) bool { return '0' <= c && c <= '9' }

// skip moves past any valid JSON value.
func (s *scan) skip(depth int) bool {
	if depth > maxSkipDepth {
		return false
	}
	switch s.peek() {
	case '"':
		_, ok := s.str()
		return ok
	case '{':
		return s.object(func(string) bool { return s.skip(depth + 1) })
	case '[':
		s.i++
		if s.peek() == ']' {
			s.i++
			return true
		}
		for {
			if !s.skip(depth + 1) {
				return false
			}
			switch s.peek() {
			case ',':
				s.i++
			case ']':
				s.i++
				return true
			default:
				return false
			}
		}
	case 't':
		return s.literal("true")
	case 'f':
		return s.literal("false")
	case 'n':
		return s.literal("null")
	}
	_, ok := s.number()
	return ok
}
