package discipline

import (
	"slices"
	"testing"
)

func TestAlternation(t *testing.T) {
	a, b := readCall("/w/a.go", "v", 1, 10, 10), readCall("/w/b.go", "v", 1, 10, 10)
	ok := cmdCall("go test ./...", 0, "ok")
	edit := func(n string) ToolCall { return editCall("/w/a.go", "x", n) }
	flip, flop := editCall("/w/a.go", "x", "y"), editCall("/w/a.go", "y", "x")
	tests := []struct {
		name  string
		calls []ToolCall // one per round
		halt  []int
	}{
		// must fire
		{"A,B,A,B,A,B halts at 6", []ToolCall{a, b, a, b, a, b}, []int{6}},
		{"an edit undone and redone", []ToolCall{flip, flop, flip, flop, flip, flop}, []int{6}},
		{"after other work", []ToolCall{ok, edit("1"), a, b, a, b, a, b}, []int{8}},
		// must not fire
		{"A,B,A,B (4 calls)", []ToolCall{a, b, a, b}, []int{}},
		{"A,B,A,B,A,C", []ToolCall{a, b, a, b, a, ok}, []int{}},
		{"edit and test, each edit different", []ToolCall{edit("1"), ok, edit("2"), ok, edit("3"), ok, edit("4"), ok}, []int{}},
		{"A,B alternating with changing results", []ToolCall{cmdCall("git status", 0, "1"), b, cmdCall("git status", 0, "2"), b, cmdCall("git status", 0, "3"), b}, []int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := quiet()
			p.Set("repeat_warn", 0)
			p.Set("repeat_halt", 0)
			p.Set("reread", 0)
			p.Set("alternation_halt", 6) // isolate this rule
			x := newSession(t, p)
			for _, c := range tt.calls {
				x.round(c)
			}
			if got := calls(of(x.fired, KindHalt)); !slices.Equal(got, tt.halt) {
				t.Errorf("halt at %v, want %v", got, tt.halt)
			}
		})
	}
}

func TestAlternationWithDefaults(t *testing.T) {
	a, b := readCall("/w/a.go", "v", 1, 10, 10), readCall("/w/b.go", "v", 1, 10, 10)
	p := quiet()
	p.Set("alternation_halt", 6)
	p.Headless = true
	x := newSession(t, p)
	var seq [][]Kind
	for _, c := range []ToolCall{a, b, a, b, a, b} {
		seq = append(seq, kindsOf(x.round(c)))
	}
	// The reread note at a's and b's third read; the halt at 6 wins over
	// b's reread note and its repeat warning.
	want := [][]Kind{{}, {}, {}, {}, {KindReread}, {KindHalt}}
	if !slices.EqualFunc(seq, want, slices.Equal) {
		t.Errorf("fired %v, want %v", seq, want)
	}
	h := of(x.fired, KindHalt)[0]
	if h.Action != Halt || h.StopReason != StopLoopDetected || h.Figures["calls"] != 6 {
		t.Errorf("halt %+v", h)
	}
}

func TestAlternationParallelAndReset(t *testing.T) {
	a, b := readCall("/w/a.go", "v", 1, 10, 10), readCall("/w/b.go", "v", 1, 10, 10)
	p := quiet()
	p.Set("repeat_warn", 0)
	p.Set("repeat_halt", 0)
	p.Set("reread", 0)
	p.Set("alternation_halt", 6)
	x := newSession(t, p)
	x.round(a, b)
	x.round(a, b)
	x.compacted(a, b) // the earlier calls left the context
	x.round(a, b)
	if hasKind(x.fired, KindHalt) {
		t.Fatalf("fired across a compaction: %v", kindsOf(x.fired))
	}
	x.round(a, b)
	if got := calls(of(x.fired, KindHalt)); !slices.Equal(got, []int{10}) {
		t.Errorf("halt at %v, want [10]", got)
	}
	isolate(&p, "alternation")
	for _, n := range []int{0, 2, 3} {
		p.Set("alternation_halt", n)
		y := newSession(t, p)
		for range 6 {
			y.round(a, b)
		}
		if hasKind(y.fired, KindHalt) {
			t.Errorf("AlternationHalt %d fired", n)
		}
	}
}
