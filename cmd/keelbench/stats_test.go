package main

import (
	"math"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
)

func TestPercentile(t *testing.T) {
	cases := []struct {
		name string
		xs   []float64
		p    float64
		want float64
	}{
		{"empty", nil, 50, 0},
		{"one", []float64{7}, 90, 7},
		{"median odd", []float64{3, 1, 2}, 50, 2},
		{"median even", []float64{4, 1, 3, 2}, 50, 2.5},
		{"p90 of 1..10", []float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, 90, 9.1},
		{"p0 is min", []float64{5, 2, 9}, 0, 2},
		{"p100 is max", []float64{5, 2, 9}, 100, 9},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Percentile(c.xs, c.p); math.Abs(got-c.want) > 1e-9 {
				t.Errorf("Percentile(%v, %v) = %v, want %v", c.xs, c.p, got, c.want)
			}
		})
	}
}

func TestMedianLeavesInputAlone(t *testing.T) {
	xs := []float64{3, 1, 2}
	if got := Median(xs); got != 2 {
		t.Errorf("Median = %v, want 2", got)
	}
	if xs[0] != 3 || xs[1] != 1 || xs[2] != 2 {
		t.Errorf("Median sorted its input: %v", xs)
	}
	if Max(nil) != 0 || Max([]float64{1, 5, 2}) != 5 {
		t.Error("Max is wrong")
	}
}

func TestGaps(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms float64) time.Time { return t0.Add(time.Duration(ms * float64(time.Millisecond))) }
	cases := []struct {
		name string
		reqs []llmtest.RecordedRequest
		want []float64
	}{
		{"none", nil, nil},
		{"one request has no gap", []llmtest.RecordedRequest{{ReceivedAt: at(0), FinishedAt: at(5)}}, nil},
		{"finish to next receive", []llmtest.RecordedRequest{
			{ReceivedAt: at(0), FinishedAt: at(5)},
			{ReceivedAt: at(6.5), FinishedAt: at(10)},
			{ReceivedAt: at(10.25), FinishedAt: at(12)},
		}, []float64{1.5, 0.25}},
		{"unfinished answer is skipped", []llmtest.RecordedRequest{
			{ReceivedAt: at(0)},
			{ReceivedAt: at(3), FinishedAt: at(4)},
			{ReceivedAt: at(6)},
		}, []float64{2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Gaps(c.reqs)
			if len(got) != len(c.want) {
				t.Fatalf("Gaps = %v, want %v", got, c.want)
			}
			for i := range got {
				if math.Abs(got[i]-c.want[i]) > 1e-9 {
					t.Errorf("gap %d = %v, want %v", i, got[i], c.want[i])
				}
			}
		})
	}
}

func TestMeasure(t *testing.T) {
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	reqs := []llmtest.RecordedRequest{
		{ReceivedAt: start.Add(20 * time.Millisecond), FinishedAt: start.Add(21 * time.Millisecond), Body: []byte("ab")},
		{ReceivedAt: start.Add(22 * time.Millisecond), FinishedAt: start.Add(23 * time.Millisecond), Body: []byte("abcd")},
		{ReceivedAt: start.Add(27 * time.Millisecond), FinishedAt: start.Add(28 * time.Millisecond), Body: []byte("abcdef")},
	}
	r := measure(reqs, start, 2)
	if r.StartMs != 20 || r.GapMedianMs != 2.5 || r.GapMaxMs != 4 || r.LastRequestBytes != 6 || r.Requests != 3 {
		t.Errorf("measure = %+v", r)
	}
}

func TestMedianResult(t *testing.T) {
	runs := []Result{{Rounds: 20, StartMs: 30, MaxRSSBytes: 3}, {Rounds: 20, StartMs: 10, MaxRSSBytes: 1}, {Rounds: 20, StartMs: 20, MaxRSSBytes: 2}}
	got := medianResult(runs)
	if got.StartMs != 20 || got.MaxRSSBytes != 2 || got.Rounds != 20 {
		t.Errorf("medianResult = %+v", got)
	}
}
