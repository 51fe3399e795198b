package datalog

import (
	"strings"
	"unicode"
)

// maxSearchTerms bounds the terms of one search, so a pasted page does
// not become a query SQLite spends seconds on.
const maxSearchTerms = 16

// searchTerms splits the user's text into FTS5 terms that cannot be read
// as syntax: each word, or each "quoted phrase", becomes an FTS5 string
// (double quotes inside doubled), so AND, OR, NOT, NEAR, parentheses,
// column filters and stray quotes are only words. A trailing * (confi*)
// keeps its meaning: a prefix search. Terms without a letter or digit
// match nothing and are dropped.
func searchTerms(text string) []string {
	var terms []string
	for _, w := range splitWords(text) {
		prefix := strings.HasSuffix(w, "*")
		w = strings.TrimRight(w, "*")
		if !strings.ContainsFunc(w, isWordRune) {
			continue
		}
		t := `"` + strings.ReplaceAll(w, `"`, `""`) + `"`
		if prefix {
			t += "*"
		}
		terms = append(terms, t)
		if len(terms) == maxSearchTerms {
			break
		}
	}
	return terms
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// splitWords splits on white space, keeping a "quoted phrase" (an
// unclosed quote runs to the end) as one word without its quotes.
func splitWords(text string) []string {
	var words []string
	var cur strings.Builder
	quoted := false
	flush := func() {
		if cur.Len() > 0 {
			words = append(words, cur.String())
			cur.Reset()
		}
	}
	for _, r := range text {
		switch {
		case r == '"':
			flush()
			quoted = !quoted
		case unicode.IsSpace(r) && !quoted:
			flush()
		default:
			cur.WriteRune(r)
		}
	}
	flush()
	return words
}

// ftsMatch joins terms into an FTS5 query: every term (AND), or any (OR).
func ftsMatch(terms []string, any bool) string {
	if any {
		return strings.Join(terms, " OR ")
	}
	return strings.Join(terms, " ")
}
