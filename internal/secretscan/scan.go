// Package secretscan finds token-shaped secrets in text (access tokens,
// API keys, private keys) and replaces them with a mark naming the rule,
// "[REDACTED:github-pat]". The rules are gitleaks' (see rules_table.go),
// tested against the examples those rules ship with.
//
// A pass costs one scan of the text for the rules' keywords (a table of
// the keywords' first two letters, case-folded); then only the rules
// whose keyword occurs run their regular expression (compiled on first
// use), and only around the keyword. Imports only the standard library.
package secretscan

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// rule is one entry of the table: its id (the mark's name), its regular
// expression (the secret is its first group, or the whole match when it
// has none or whole is set), the keywords that must occur (any case) for
// it to run, and the Shannon entropy the secret must reach, which keeps
// placeholders such as ghp_xxxx… unmarked.
type rule struct {
	id       string
	re       string
	keywords []string
	entropy  float64
	whole    bool
	// context: the secret may start away from the keyword (a URL's
	// password after its scheme, a suffix such as _mmk, a marker inside
	// the token), so the expression runs over a window around it.
	// Otherwise the match starts at the keyword, and the expression runs
	// anchored there: gitleaks' expressions mostly start with \b, which
	// leaves Go's regexp no literal prefix to skip ahead with, and over a
	// whole text they cost a millisecond per 32 KB each.
	context bool

	once     sync.Once
	compiled *regexp.Regexp // anchored (\A) unless context
	leadingB bool           // the expression starts with \b, which anchoring at the keyword would always satisfy
}

func (r *rule) regexp() *regexp.Regexp {
	r.once.Do(func() {
		re := r.re
		if !r.context {
			re = `\A(?:` + re + `)`
		}
		r.compiled = regexp.MustCompile(re)
		r.leadingB = strings.HasPrefix(strings.TrimPrefix(r.re, "(?i)"), `\b`)
	})
	return r.compiled
}

// keywordIndex maps a keyword's first two bytes (lower case) to the
// rules that have such a keyword; any is the same set as a bitmap, which
// the scan reads for every byte (a map lookup there cost 80% of a pass).
type keywordIndex struct {
	rules map[uint16][]int
	any   [1 << 16 / 8]byte
}

var index = sync.OnceValue(func() *keywordIndex {
	x := &keywordIndex{rules: map[uint16][]int{}}
	for i := range rules {
		for _, k := range rules[i].keywords {
			key := pair(k[0], k[1])
			if !slices.Contains(x.rules[key], i) {
				x.rules[key] = append(x.rules[key], i)
			}
			x.any[key/8] |= 1 << (key % 8)
		}
	}
	return x
})

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func pair(a, b byte) uint16 { return uint16(lower(a))<<8 | uint16(lower(b)) }

// hits are, for each rule one of whose keywords occurs in s, where the
// keywords occur.
func hits(s string) map[int][]int {
	idx := index()
	var out map[int][]int
	for i := 0; i+1 < len(s); i++ {
		key := pair(s[i], s[i+1])
		if idx.any[key/8]&(1<<(key%8)) == 0 {
			continue
		}
		for _, ri := range idx.rules[key] {
			for _, k := range rules[ri].keywords {
				if len(s)-i >= len(k) && strings.EqualFold(s[i:i+len(k)], k) {
					if out == nil {
						out = map[int][]int{}
					}
					out[ri] = append(out[ri], i)
					break
				}
			}
		}
	}
	return out
}

// A secret starts at most before bytes ahead of its keyword (aws…secret
// = KEY, a URL's scheme, maxmind's suffix) and ends within after bytes
// of it (a PEM private key's body). The expressions run only on these
// windows, so the cost follows the keywords found, not the text's size:
// most of gitleaks' expressions start with \b, which leaves Go's regexp
// no literal prefix to skip ahead with.
const (
	before   = 256
	after    = 2 << 10
	afterPEM = 16 << 10 // a private key's body
)

// span is a secret's place in the text and the rule that found it.
type span struct {
	start, end int
	id         string
}

// find returns the secrets in s, in order, without overlaps. The rules
// read a view of s in which the escapes \n, \r and \t end a word, as the
// characters they stand for do: stored arguments are JSON, where a token
// on its own line follows "\n", and gitleaks' \b would not see it start.
// The view has the same length, so its offsets are s's.
func find(orig string) []span {
	s := escapesAsSpace(orig)
	var spans []span
	for ri, positions := range hits(s) {
		r := &rules[ri]
		reach := after
		if r.id == "private-key" {
			reach = afterPEM
		}
		re := r.regexp()
		add := func(base int, m []int) {
			start, end := m[0], m[1]
			if len(m) >= 4 && m[2] >= 0 && !r.whole {
				start, end = m[2], m[3]
			}
			if end > start && entropy(s[base+start:base+end]) >= r.entropy {
				spans = append(spans, span{base + start, base + end, r.id})
			}
		}
		if !r.context {
			for _, p := range positions {
				if r.leadingB && !boundary(s, p) {
					continue // \b does not hold here
				}
				if m := re.FindStringSubmatchIndex(s[p:min(len(s), p+reach)]); m != nil {
					add(p, m)
				}
			}
			continue
		}
		for _, w := range windows(positions, len(s), reach) {
			for _, m := range re.FindAllStringSubmatchIndex(s[w[0]:w[1]], -1) {
				add(w[0], m)
			}
		}
	}
	slices.SortFunc(spans, func(a, b span) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	out := spans[:0]
	for _, sp := range spans {
		if n := len(out); n > 0 && sp.start < out[n-1].end {
			out[n-1].end = max(out[n-1].end, sp.end)
			continue
		}
		out = append(out, sp)
	}
	return out
}

// boundary reports whether \b holds before s[p].
func boundary(s string, p int) bool {
	return p == 0 || !word(s[p]) || !word(s[p-1])
}

// escapesAsSpace is s with every \n, \r and \t escape replaced by a
// space and a newline: white space, as what they stand for is, on both
// sides of a token (gitleaks' expressions end with [\s…]|\\[nr]).
func escapesAsSpace(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	b := []byte(s)
	for i := 0; i+1 < len(b); i++ {
		if b[i] == '\\' {
			switch b[i+1] {
			case 'n', 'r', 't':
				b[i], b[i+1] = ' ', '\n'
			}
			i++
		}
	}
	return string(b)
}

// word reports a byte \b counts as part of a word.
func word(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// windows are the stretches of text around the keyword positions (in
// increasing order), merged where they overlap.
func windows(positions []int, n, reach int) [][2]int {
	var out [][2]int
	for _, p := range positions {
		lo, hi := max(0, p-before), min(n, p+reach)
		if k := len(out); k > 0 && lo <= out[k-1][1] {
			out[k-1][1] = max(out[k-1][1], hi)
			continue
		}
		out = append(out, [2]int{lo, hi})
	}
	return out
}

// Redact returns s with every secret replaced by "[REDACTED:RULE]", and
// whether it found one. Text without a secret is returned as it is.
func Redact(s string) (string, bool) {
	spans := find(s)
	if len(spans) == 0 {
		return s, false
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, sp := range spans {
		b.WriteString(s[last:sp.start])
		b.WriteString("[REDACTED:" + sp.id + "]")
		last = sp.end
	}
	b.WriteString(s[last:])
	return b.String(), true
}

// entropy is the Shannon entropy of s's bytes, in bits.
func entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	var h float64
	n := float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}
