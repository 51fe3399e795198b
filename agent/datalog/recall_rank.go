package datalog

import (
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// queryWord is one searched word, lowercased, and its light stem;
// prefix marks a prefix search (confi*).
type queryWord struct {
	text, stem string
	prefix     bool
}

func newQueryWord(text string, prefix bool) queryWord {
	return queryWord{text: text, stem: lightStem(text), prefix: prefix}
}

// matches reports whether a word of a text (lowercased, and its light
// stem) is this word: the same word or the same stem (tests, testing,
// tested and test), or, for a prefix search, any word that begins with
// it. It approximates FTS5's Porter matching, for ranking and marking
// only: which texts match is FTS5's decision.
func (q queryWord) matches(w, stem string) bool {
	if q.prefix {
		return strings.HasPrefix(w, q.text)
	}
	return w == q.text || stem == q.stem
}

// lightStem strips a few English endings.
func lightStem(w string) string {
	for _, suf := range []string{"ing", "ed", "es", "s"} {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 3 {
			return strings.TrimSuffix(w, suf)
		}
	}
	return w
}

// windowDoc is one text of the search window.
type windowDoc struct {
	id    int64
	hit   Hit
	text  string
	score float64
}

// BM25's usual constants.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// rankWindow orders the window's texts best first by BM25 computed over
// the window itself: a word's rarity is how few of these texts hold it,
// which spares reading the whole index for a common word. Ties go to the
// newer text.
func rankWindow(docs []*windowDoc, words []queryWord) {
	if len(docs) == 0 {
		return
	}
	tf := make([][]int, len(docs))
	lengths := make([]int, len(docs))
	holding := make([]int, len(words))
	total := 0
	for i, d := range docs {
		tf[i], lengths[i] = termCounts(d.text, words)
		total += lengths[i]
		for j, n := range tf[i] {
			if n > 0 {
				holding[j]++
			}
		}
	}
	avg := math.Max(1, float64(total)/float64(len(docs)))
	n := float64(len(docs))
	for i, d := range docs {
		d.score = 0
		norm := bm25K1 * (1 - bm25B + bm25B*float64(lengths[i])/avg)
		for j, c := range tf[i] {
			if c == 0 {
				continue
			}
			idf := math.Log(1 + (n-float64(holding[j])+0.5)/(float64(holding[j])+0.5))
			d.score += idf * float64(c) * (bm25K1 + 1) / (float64(c) + norm)
		}
	}
	sort.SliceStable(docs, func(a, b int) bool {
		if docs[a].score != docs[b].score {
			return docs[a].score > docs[b].score
		}
		return docs[a].id > docs[b].id
	})
}

// termCounts counts each searched word in text, and the text's words.
// A word whose first letter starts none of the searched words is passed
// over without lowering or stemming it.
func termCounts(text string, words []queryWord) ([]int, int) {
	counts := make([]int, len(words))
	var first [256]bool
	for _, q := range words {
		first[q.text[0]] = true
		first[unicode.ToUpper(rune(q.text[0]))&0xff] = true
	}
	spans := wordSpans(text)
	for _, sp := range spans {
		if c := text[sp.start]; c < utf8.RuneSelf && !first[c] {
			continue
		}
		w := lowerWord(text[sp.start:sp.end])
		stem := lightStem(w)
		for j, q := range words {
			if q.matches(w, stem) {
				counts[j]++
			}
		}
	}
	return counts, len(spans)
}

// lowerWord is strings.ToLower without allocating for a word already in
// lower case.
func lowerWord(w string) string {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c >= 0x80 || ('A' <= c && c <= 'Z') {
			return strings.ToLower(w)
		}
	}
	return w
}
