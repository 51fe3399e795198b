package tools

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
)

const (
	candMax      = 3
	candMinScore = 0.4
	candMaxShow  = 8 // lines shown per candidate
	candMaxWork  = 4_000_000
)

// closestCandidates describes the places in lines that most resemble
// oldLines, with line numbers, so the model can copy the real text.
func closestCandidates(lines, oldLines []string) string {
	k := min(len(oldLines), len(lines))
	if k == 0 {
		return "The file is empty."
	}
	if len(lines)*k > candMaxWork {
		oldLines, k = oldLines[firstNonBlank(oldLines):][:1], 1 // huge: compare first lines only
	}
	var b strings.Builder
	var picked []int
	for _, c := range scoreWindows(lines, oldLines[:k]) {
		if len(picked) == candMax {
			break
		}
		if overlaps(picked, c.start, k) {
			continue
		}
		picked = append(picked, c.start)
		fmt.Fprintf(&b, "\nlines %d-%d (%.0f%% similar):\n", c.start+1, c.start+k, c.score*100)
		for i := c.start; i < c.start+min(k, candMaxShow); i++ {
			fmt.Fprintf(&b, "%6d\t%s\n", i+1, strings.TrimRight(lines[i], "\r\n"))
		}
	}
	if len(picked) == 0 {
		return "Nothing in the file resembles it: read the file again, it may differ from what you remember."
	}
	return "The closest places in the file are below; copy the exact text from them." + b.String()
}

type candidate struct {
	start int
	score float64
}

// scoreWindows scores every window of len(old) lines by the mean token
// similarity of its lines to old's, best first, dropping weak ones.
func scoreWindows(lines, old []string) []candidate {
	k := len(old)
	oldToks := make([]map[string]bool, k)
	for j := range k {
		oldToks[j] = tokens(old[j])
	}
	lineToks := make([]map[string]bool, len(lines))
	for i, l := range lines {
		lineToks[i] = tokens(l)
	}
	var cs []candidate
	for i := 0; i+k <= len(lines); i++ {
		s := 0.0
		for j := range k {
			s += jaccard(oldToks[j], lineToks[i+j])
		}
		if s/float64(k) >= candMinScore {
			cs = append(cs, candidate{i, s / float64(k)})
		}
	}
	sort.SliceStable(cs, func(a, b int) bool { return cs[a].score > cs[b].score })
	return cs
}

func overlaps(starts []int, s, k int) bool {
	for _, p := range starts {
		if s < p+k && p < s+k {
			return true
		}
	}
	return false
}

// tokens splits a line into its words and punctuation runs.
func tokens(l string) map[string]bool {
	set := map[string]bool{}
	for _, f := range strings.FieldsFunc(l, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) {
		set[f] = true
	}
	return set
}

func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1 // two blank lines are alike
	}
	inter := 0
	for t := range a {
		if b[t] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}
