package config

import "strings"

// suggest returns the known key closest to an unknown key path, or "".
// It first looks among the keys of the same table (typos), then for the
// same name in another table (`repeat_warn` at the top level means
// `discipline.repeat_warn`).
func suggest(parts []string) string {
	name := parts[len(parts)-1]
	prefix := strings.Join(parts[:len(parts)-1], ".")
	best, bestDist := "", maxDistance(name)+1
	for _, k := range childKeys(prefix) {
		if d := distance(name, k); d < bestDist {
			best, bestDist = k, d
		}
	}
	if best != "" {
		if prefix == "" {
			return best
		}
		return prefix + "." + best
	}
	for _, f := range allFields() {
		if strings.HasSuffix(f.key, "."+name) {
			return f.key
		}
	}
	return ""
}

// maxDistance is how many edits still count as a typo of name.
func maxDistance(name string) int {
	return max(1, min(3, len(name)/4))
}

// distance is the edit distance between a and b counting a swap of two
// neighbouring letters as one edit (optimal string alignment), by bytes
// since keys are ASCII: "modle" is one edit from "model".
func distance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
