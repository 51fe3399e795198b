package eval_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/keel-dev/keel/cmd/keel/eval"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestTQuantile(t *testing.T) {
	// Two-sided 95% critical values from any t table.
	tests := []struct{ df, want float64 }{
		{1, 12.706}, {2, 4.303}, {4, 2.776}, {9, 2.262}, {10, 2.228}, {29, 2.045}, {100, 1.984}, {1e6, 1.960},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.df), func(t *testing.T) {
			if got := eval.TQuantile(0.975, tt.df); !near(got, tt.want, 0.001) {
				t.Errorf("TQuantile(0.975, %v) = %.4f, want %.3f", tt.df, got, tt.want)
			}
			if got := eval.TQuantile(0.025, tt.df); !near(got, -tt.want, 0.001) {
				t.Errorf("TQuantile(0.025, %v) = %.4f, want %.3f", tt.df, got, -tt.want)
			}
		})
	}
}

func TestWilson(t *testing.T) {
	tests := []struct {
		k, n      int
		low, high float64
	}{
		{0, 10, 0, 0.2775},        // the rule of three's better cousin
		{10, 10, 0.7225, 1},       // symmetric
		{5, 10, 0.2366, 0.7634},   // p = 0.5
		{81, 263, 0.2553, 0.3662}, // Wilson's interval for 81/263
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d of %d", tt.k, tt.n), func(t *testing.T) {
			iv := eval.Wilson(tt.k, tt.n)
			if !iv.OK || !near(iv.Low, tt.low, 0.0005) || !near(iv.High, tt.high, 0.0005) {
				t.Errorf("Wilson(%d, %d) = %+v, want [%.4f, %.4f]", tt.k, tt.n, iv, tt.low, tt.high)
			}
		})
	}
	if eval.Wilson(0, 0).OK {
		t.Error("Wilson of no trials is defined")
	}
}

func TestNewcombe(t *testing.T) {
	// Newcombe (1998), Statistics in Medicine 17:873, table II, method 10:
	// 56/70 − 48/80 = 0.2000, 95% CI 0.0524 to 0.3339.
	iv := eval.Newcombe(48, 80, 56, 70)
	if !near(iv.Low, 0.0524, 0.0005) || !near(iv.High, 0.3339, 0.0005) || !iv.Excludes0() {
		t.Errorf("Newcombe = %+v, want [0.0524, 0.3339]", iv)
	}
	if same := eval.Newcombe(5, 10, 5, 10); same.Excludes0() {
		t.Errorf("equal proportions differ significantly: %+v", same)
	}
}

func TestMeanAndPairedDiff(t *testing.T) {
	tests := []struct {
		name       string
		a, b       []float64
		wantDiff   float64
		wantOK     bool
		wantSignif bool
	}{
		{"one pair has no interval", []float64{1}, []float64{3}, 2, false, false},
		{"constant shift is certain", []float64{1, 2, 3}, []float64{3, 4, 5}, 2, true, true},
		{"noise around zero", []float64{1, 5, 2, 6}, []float64{2, 4, 3, 5}, 0, true, false},
		{"pairing removes the task effect", []float64{1, 10, 100, 1000}, []float64{2, 11, 101, 1001.5}, 1.125, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, iv := eval.PairedDiff(tt.a, tt.b)
			if !near(d, tt.wantDiff, 1e-9) || iv.OK != tt.wantOK || iv.Excludes0() != tt.wantSignif {
				t.Errorf("PairedDiff = %v, %+v; want %v, ok %v, significant %v", d, iv, tt.wantDiff, tt.wantOK, tt.wantSignif)
			}
		})
	}
	m, iv := eval.Mean([]float64{2, 4, 6})
	// mean 4, sd 2, se 2/√3, t(0.975, 2) = 4.303: half width 4.968.
	if m != 4 || !near(iv.High-m, 4.968, 0.001) || !near(m-iv.Low, 4.968, 0.001) {
		t.Errorf("Mean = %v, %+v", m, iv)
	}
}
