package ui

import (
	"sort"
	"strings"
	"unicode"
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

// fuzzyScore scores path for query; ok is false when it does not match.
// Every start of the query's first character is tried, keeping the best.
func fuzzyScore(query, path string) (score int, ok bool) {
	q := lowerRunes(query)
	p := []rune(path)
	if len(q) == 0 {
		return 0, true
	}
	lower := lowerRunes(path)
	name := strings.LastIndexByte(path, '/') + 1
	nameStart := len([]rune(path[:name]))
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
// query lists the shallowest paths first.
func rankFiles(query string, paths []string, n int) []string {
	type hit struct {
		path  string
		score int
	}
	var hits []hit
	for _, p := range paths {
		if s, ok := fuzzyScore(query, p); ok {
			if query == "" {
				s = -strings.Count(p, "/")
			}
			hits = append(hits, hit{p, s})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if a.score != b.score {
			return a.score > b.score
		}
		if len(a.path) != len(b.path) {
			return len(a.path) < len(b.path)
		}
		return a.path < b.path
	})
	out := make([]string, 0, min(n, len(hits)))
	for i := 0; i < len(hits) && i < n; i++ {
		out = append(out, hits[i].path)
	}
	return out
}
