package datalog

import (
	"strings"
	"unicode/utf8"
)

// snippetWords is how many words of a text a snippet shows.
const snippetWords = 32

// span is a word's byte offsets in a text.
type span struct{ start, end int }

// snippet is the part of text where the searched words are densest, on
// one line, with the words that match marked **like this** and "…"
// where text was cut. A word is marked when it matches a searched word
// (queryWord.matches).
func snippet(text string, words []queryWord) string {
	spans := wordSpans(text)
	marked := make([]bool, len(spans))
	for i, sp := range spans {
		marked[i] = matchesAny(lowerWord(text[sp.start:sp.end]), words)
	}
	from := densest(marked, snippetWords)
	to := min(from+snippetWords, len(spans))
	var b strings.Builder
	if from > 0 {
		b.WriteString("…")
	}
	prev := 0
	if from > 0 {
		prev = spans[from].start
	}
	for i := from; i < to; i++ {
		sp := spans[i]
		b.WriteString(text[prev:sp.start])
		if marked[i] {
			b.WriteString("**" + text[sp.start:sp.end] + "**")
		} else {
			b.WriteString(text[sp.start:sp.end])
		}
		prev = sp.end
	}
	if to < len(spans) {
		b.WriteString("…")
	} else {
		b.WriteString(text[prev:])
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// wordSpans finds the runs of letters and digits in text.
func wordSpans(text string) []span {
	var out []span
	start := -1
	for i := 0; i < len(text); {
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		word := isWordRune(r)
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			out = append(out, span{start, i})
			start = -1
		}
		i += size
	}
	if start >= 0 {
		out = append(out, span{start, len(text)})
	}
	return out
}

// densest is where an n-word window holding the most marks starts, with
// the marks centred in it (0 when there are none).
func densest(marked []bool, n int) int {
	best, end, count := 0, -1, 0
	for i := range marked {
		if marked[i] {
			count++
		}
		if i >= n && marked[i-n] {
			count--
		}
		if count > best {
			best, end = count, i // count grows on a mark only: end is one
		}
	}
	if end < 0 {
		return 0
	}
	first := max(0, end-n+1)
	for !marked[first] {
		first++
	}
	slack := n - (end - first + 1)
	return max(0, min(first-slack/2, len(marked)-n))
}

// matchesAny reports whether a lowercased word matches a searched word.
func matchesAny(w string, words []queryWord) bool {
	stem := lightStem(w)
	for _, q := range words {
		if q.matches(w, stem) {
			return true
		}
	}
	return false
}
