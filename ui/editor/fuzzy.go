package editor

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Fuzzy matching for @file completion: the query's characters must appear
// in the path in order (case-insensitive). Among the matches, the score
// prefers, in this order of weight: the query found in the file's name
// rather than its directories, matches at the start of a word (after /,
// _, -, . or a lower-to-upper case change), runs of consecutive
// characters, and few characters skipped; ties go to the shorter path.
const (
	scoreMatch       = 16
	scoreWordStart   = 12
	scoreConsecutive = 10
	scoreInName      = 4 // per character matched inside the file's name
	scoreNamePrefix  = 20
	penaltyGap       = 1 // per character skipped, at most maxGapPenalty per gap
	maxGapPenalty    = 6
)

// scorePath scores path for the lowered query q. A pass that allocates
// nothing rejects most paths first; for the rest every start of q's first
// character is tried, keeping the best.
func scorePath(q []rune, path string) (int, bool) {
	if len(q) == 0 {
		return 0, true
	}
	if !subsequence(q, path) {
		return 0, false
	}
	p, lower := []rune(path), lowerRunes(path)
	nameStart := len([]rune(path[:strings.LastIndexByte(path, '/')+1]))
	best, found := 0, false
	for start := range lower {
		if lower[start] != q[0] {
			continue
		}
		if s, ok := scoreFrom(q, p, lower, start, nameStart); ok && (!found || s > best) {
			best, found = s, true
		}
	}
	return best, found
}

// subsequence reports whether the lowered runes q appear in s in order.
func subsequence(q []rune, s string) bool {
	i := 0
	for j := 0; j < len(s) && i < len(q); {
		c, size := rune(s[j]), 1
		if c >= utf8.RuneSelf {
			c, size = utf8.DecodeRuneInString(s[j:])
			c = unicode.ToLower(c)
		} else if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c == q[i] {
			i++
		}
		j += size
	}
	return i == len(q)
}

// lowerRunes is s's runes, each lowered (one rune for one, unlike
// strings.ToLower).
func lowerRunes(s string) []rune {
	r := []rune(s)
	for i, c := range r {
		r[i] = unicode.ToLower(c)
	}
	return r
}

// scoreFrom matches q greedily from position start and scores the match.
func scoreFrom(q, p, lower []rune, start, nameStart int) (int, bool) {
	score, qi, prev := 0, 0, -1
	for i := start; i < len(lower) && qi < len(q); i++ {
		if lower[i] != q[qi] {
			continue
		}
		score += scoreMatch
		if wordStart(p, i) {
			score += scoreWordStart
		}
		if prev >= 0 && i == prev+1 {
			score += scoreConsecutive
		} else if prev >= 0 {
			score -= min((i-prev-1)*penaltyGap, maxGapPenalty)
		}
		if i >= nameStart {
			score += scoreInName
		}
		prev = i
		qi++
	}
	if qi < len(q) {
		return 0, false
	}
	if start == nameStart && hasPrefixFold(p[nameStart:], q) {
		score += scoreNamePrefix
	}
	return score, true
}

// wordStart reports whether p[i] begins a word.
func wordStart(p []rune, i int) bool {
	if i == 0 {
		return true
	}
	switch p[i-1] {
	case '/', '_', '-', '.', ' ':
		return true
	}
	return unicode.IsLower(p[i-1]) && unicode.IsUpper(p[i])
}

// hasPrefixFold reports whether p starts with the lowered runes q.
func hasPrefixFold(p, q []rune) bool {
	if len(p) < len(q) {
		return false
	}
	for i, c := range q {
		if unicode.ToLower(p[i]) != c {
			return false
		}
	}
	return true
}

// rankFiles returns up to n paths matching query, best first; an empty
// query lists the shallowest paths first. Only the best n are kept while
// the paths are scored, so a large workspace is never sorted whole.
func rankFiles(query string, paths []string, n int) []string {
	q := lowerRunes(query)
	var top []fileHit // sorted, best first, at most n
	for _, p := range paths {
		s, ok := scorePath(q, p)
		if !ok {
			continue
		}
		if len(q) == 0 {
			s = -strings.Count(p, "/")
		}
		h := fileHit{p, s}
		if len(top) == n && !h.before(top[n-1]) {
			continue
		}
		i := sort.Search(len(top), func(i int) bool { return h.before(top[i]) })
		if len(top) < n {
			top = append(top, fileHit{})
		}
		copy(top[i+1:], top[i:])
		top[i] = h
	}
	out := make([]string, len(top))
	for i, h := range top {
		out[i] = h.path
	}
	return out
}

// fileHit is a matching path and its score.
type fileHit struct {
	path  string
	score int
}

// before orders hits: higher score, then shorter path, then by name.
func (a fileHit) before(b fileHit) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	if len(a.path) != len(b.path) {
		return len(a.path) < len(b.path)
	}
	return a.path < b.path
}
