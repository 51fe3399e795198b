package main

import (
	"math"
	"slices"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
)

// Median returns the middle value of xs (the mean of the two middle values
// for an even count), or 0 for none. xs is not modified.
func Median(xs []float64) float64 {
	return Percentile(xs, 50)
}

// Percentile returns the p-th percentile of xs (0 ≤ p ≤ 100) by linear
// interpolation between closest ranks, or 0 for none. xs is not modified.
func Percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	pos := p / 100 * float64(len(s)-1)
	lo := int(math.Floor(pos))
	hi := int(math.Ceil(pos))
	return s[lo] + (s[hi]-s[lo])*(pos-float64(lo))
}

// Max returns the largest value of xs, or 0 for none.
func Max(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return slices.Max(xs)
}

// Gaps returns, for each request after the first, the time from the end of
// the previous response (FinishedAt) to the arrival of this request
// (ReceivedAt), in milliseconds: keel's own time between rounds.
func Gaps(reqs []llmtest.RecordedRequest) []float64 {
	var out []float64
	for i := 1; i < len(reqs); i++ {
		prev, cur := reqs[i-1], reqs[i]
		if prev.FinishedAt.IsZero() {
			continue // the previous answer never finished; no gap to measure
		}
		out = append(out, ms(cur.ReceivedAt.Sub(prev.FinishedAt)))
	}
	return out
}

// ms converts a duration to fractional milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
