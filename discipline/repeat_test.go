package discipline

import (
	"slices"
	"testing"
)

func TestRepeat(t *testing.T) {
	read := readCall("/w/a.go", "v", 1, 10, 10)
	test := func(out string, exit int) ToolCall { return cmdCall("go test ./...", exit, out) }
	gitStatus := func(out string) ToolCall { return cmdCall("git status", 0, out) }
	tests := []struct {
		name     string
		calls    []ToolCall // one per round
		headless bool
		repeat   []int // calls where the warning fired
		halt     []int // calls where the halt fired
	}{
		{"same read four times: warn at 3, halt at 4", []ToolCall{read, read, read, read}, false, []int{3}, []int{4}},
		{"same passing command four times", []ToolCall{test("ok", 0), test("ok", 0), test("ok", 0), test("ok", 0)}, true, []int{3}, []int{4}},
		{"same command, only the timings differ", []ToolCall{test("ok x 0.12s\n[exit code 0, 1.1s]", 0), test("ok x 0.10s\n[exit code 0, 0.9s]", 0), test("ok x 0.31s\n[exit code 0, 1.0s]", 0)}, false, []int{3}, []int{}},
		{"the halt consumes the count", []ToolCall{read, read, read, read, read, read}, false, []int{3}, []int{4}},
		{"edit, test fails, edit, test passes", []ToolCall{editCall("/w/a.go", "a", "b"), test("FAIL", 1), editCall("/w/a.go", "b", "c"), test("ok", 0)}, false, []int{}, []int{}},
		{"same failing test after each edit", []ToolCall{test("FAIL x", 1), editCall("/w/a.go", "a", "b"), test("FAIL x", 1), editCall("/w/a.go", "b", "c"), test("FAIL x", 1), editCall("/w/a.go", "c", "d"), test("FAIL x", 1)}, false, []int{}, []int{}},
		{"same command, changing output", []ToolCall{gitStatus("1"), gitStatus("2"), gitStatus("3"), gitStatus("4")}, false, []int{}, []int{}},
		{"different arguments", []ToolCall{readCall("/w/a.go", "v", 1, 10, 10), readCall("/w/b.go", "v", 1, 10, 10), readCall("/w/c.go", "v", 1, 10, 10), readCall("/w/d.go", "v", 1, 10, 10)}, false, []int{}, []int{}},
		{"same base name in two directories", []ToolCall{readCall("/w/a/x.go", "v", 1, 9, 9), readCall("/w/b/x.go", "v", 1, 9, 9), readCall("/w/a/x.go", "v", 1, 9, 9), readCall("/w/b/x.go", "v", 1, 9, 9)}, false, []int{}, []int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := quiet()
			p.Headless = tt.headless
			p.Set("reread", 0) // isolate this rule
			x := newSession(t, p)
			for _, c := range tt.calls {
				x.round(c)
			}
			if got := calls(of(x.fired, KindRepeat)); !slices.Equal(got, tt.repeat) {
				t.Errorf("repeat at %v, want %v", got, tt.repeat)
			}
			halts := of(x.fired, KindHalt)
			if got := calls(halts); !slices.Equal(got, tt.halt) {
				t.Errorf("halt at %v, want %v", got, tt.halt)
			}
			for _, h := range halts {
				want := Ask
				if tt.headless {
					want = Halt
				}
				if h.Action != want || h.StopReason != StopLoopDetected {
					t.Errorf("halt %+v: want action %s, stop reason %s", h, want, StopLoopDetected)
				}
			}
		})
	}
}

func TestRepeatCompactionAndDisabled(t *testing.T) {
	read := readCall("/w/a.go", "v", 1, 10, 10)
	x := newSession(t, quiet())
	x.round(read)
	x.round(read)
	x.compacted(read) // earlier results left the context: count starts over
	x.round(read)
	if hasKind(x.fired, KindRepeat) || hasKind(x.fired, KindHalt) {
		t.Errorf("fired after compaction: %v", kindsOf(x.fired))
	}
	p := quiet()
	isolate(&p, "repeat")
	p.Set("repeat_warn", 0)
	p.Set("repeat_halt", 0)
	x = newSession(t, p)
	for range 8 {
		x.round(read)
	}
	if hasKind(x.fired, KindRepeat) || hasKind(x.fired, KindHalt) {
		t.Errorf("fired while disabled: %v", kindsOf(x.fired))
	}
}

// A scripted read loop: the reread note at the third read (it says more
// than the repeat warning due at the same call), then the halt.
func TestReadLoopEscalates(t *testing.T) {
	p := DefaultPolicy()
	p.Headless = true
	x := newSession(t, p)
	read := readCall("/w/a.go", "v", 1, 50, 50)
	var seq [][]Kind
	for range 4 {
		seq = append(seq, kindsOf(x.round(read)))
	}
	want := [][]Kind{{}, {}, {KindReread}, {KindHalt}}
	if !slices.EqualFunc(seq, want, slices.Equal) {
		t.Errorf("escalation %v, want %v", seq, want)
	}
}
