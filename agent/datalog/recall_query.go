package datalog

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxSearchTerms bounds the terms of one search, so a pasted page does
// not become a query SQLite spends seconds on.
const maxSearchTerms = 16

// stopWords are left out of a search unless every word is one: nearly
// every text holds them, so they only slow the search ("how did we fix
// the flaky test" searches fix, flaky, test).
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an and are as at be but by did do does for from had has
		have how i in is it its me my not of on or our so that the their then there these this
		to was we were what when where which who why will with would you your`) {
		m[w] = true
	}
	return m
}()

// word is one word or "quoted phrase" of the user's text.
type word struct {
	text   string
	quoted bool
}

// searchTerms turns the user's text into FTS5 terms that cannot be read
// as syntax: each word, or each "quoted phrase", becomes an FTS5 string
// (double quotes inside doubled), so AND, OR, NOT, NEAR, parentheses,
// column filters and stray quotes are only words. A trailing * (confi*)
// keeps its meaning: a prefix search. Terms without a letter or digit
// match nothing and are dropped, and so are stop words unless nothing
// else is left. words are the words of the terms kept, for ranking and
// marking them in snippets.
func searchTerms(text string) (terms []string, words []queryWord) {
	all := splitWords(text)
	kept := all[:0:0]
	for _, w := range all {
		if w.quoted || !stopWords[strings.ToLower(strings.TrimRight(w.text, "*"))] {
			kept = append(kept, w)
		}
	}
	if len(kept) == 0 {
		kept = all
	}
	for _, w := range kept {
		prefix := !w.quoted && strings.HasSuffix(w.text, "*")
		s := strings.TrimRight(w.text, "*")
		if !strings.ContainsFunc(s, isWordRune) {
			continue
		}
		t := `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
		if prefix {
			t += "*"
		}
		terms = append(terms, t)
		parts := strings.FieldsFunc(strings.ToLower(s), notWordRune)
		for i, p := range parts {
			words = append(words, newQueryWord(p, prefix && i == len(parts)-1))
		}
		if len(terms) == maxSearchTerms {
			break
		}
	}
	return terms, words
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func notWordRune(r rune) bool { return !isWordRune(r) }

// splitWords splits on white space and control characters, keeping a
// "quoted phrase" (an unclosed quote runs to the end) as one word without
// its quotes.
func splitWords(text string) []word {
	var words []word
	var cur strings.Builder
	quoted := false
	flush := func() {
		if cur.Len() > 0 {
			words = append(words, word{text: cur.String(), quoted: quoted})
			cur.Reset()
		}
	}
	for _, r := range text {
		switch {
		case r == '"':
			flush()
			quoted = !quoted
		case unicode.IsControl(r) || unicode.IsSpace(r) && !quoted:
			// A control character (NUL would end the query's C string)
			// splits words even in a phrase.
			flush()
		default:
			cur.WriteRune(r)
		}
	}
	flush()
	return words
}

// ftsMatch joins terms into an FTS5 query: every term (AND), or any (OR).
func ftsMatch(terms []string, or bool) string {
	if or {
		return strings.Join(terms, " OR ")
	}
	return strings.Join(terms, " ")
}
