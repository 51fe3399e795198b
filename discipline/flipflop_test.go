package discipline

import (
	"slices"
	"strings"
	"testing"
)

// edit is an edit_file call that took path from content before to after.
func edit(path, before, after string) ToolCall {
	c := editCall(path, before, after)
	c.Edits = []Edit{{Path: path, Before: Hash(before), After: Hash(after)}}
	return c
}

func TestFlipFlop(t *testing.T) {
	const f = "/w/calc.go"
	test := cmdCall("go test ./...", 1, "--- FAIL: TestAdd\ncalc_test.go:9: got 3, want 4\nFAIL")
	tests := []struct {
		name  string
		calls []ToolCall
		halt  []int
	}{
		// must fire
		{"A, B, A, B with a test after each edit", []ToolCall{edit(f, "A", "B"), test, edit(f, "B", "A"), test, edit(f, "A", "B"), test, edit(f, "B", "A")}, []int{5}},
		{"A, B, A, C, A: a second return, to A", []ToolCall{edit(f, "A", "B"), edit(f, "B", "A"), edit(f, "A", "C"), edit(f, "C", "A")}, []int{4}},
		{"created, deleted, created", []ToolCall{
			{Name: "write_file", Changed: []string{f}, Edits: []Edit{{Path: f, Before: Absent, After: Hash("x")}}},
			{Name: "run_command", Command: "rm calc.go", Changed: []string{f}, Edits: []Edit{{Path: f, Before: "", After: Absent}}},
			{Name: "write_file", Changed: []string{f}, Edits: []Edit{{Path: f, Before: Absent, After: Hash("x")}}},
		}, []int{3}},
		// must not fire
		{"a debug print added and removed once", []ToolCall{edit(f, "A", "B"), test, edit(f, "B", "A"), test, edit(f, "A", "C"), edit(f, "C", "D")}, nil},
		{"steady progress", []ToolCall{edit(f, "A", "B"), edit(f, "B", "C"), edit(f, "C", "D"), edit(f, "D", "E")}, nil},
		{"two files, one return each", []ToolCall{edit(f, "A", "B"), edit(f, "B", "A"), edit("/w/x.go", "A", "B"), edit("/w/x.go", "B", "A")}, nil},
		{"a no-op edit", []ToolCall{edit(f, "A", "A"), edit(f, "A", "A"), edit(f, "A", "A")}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := quiet()
			isolate(&p, "flip_flop")
			p.Headless = true
			x := newSession(t, p)
			for _, c := range tt.calls {
				x.round(c)
			}
			if got := calls(of(x.fired, KindHalt)); !slices.Equal(got, orEmpty(tt.halt)) {
				t.Fatalf("halts at %v, want %v", got, tt.halt)
			}
			for _, in := range x.fired {
				if !strings.Contains(in.Message, "second time") || !strings.Contains(in.Message, f) {
					t.Errorf("halt message %q", in.Message)
				}
			}
		})
	}
}

// A new task starts the file's history afresh.
func TestFlipFlopIsPerTask(t *testing.T) {
	const f = "/w/calc.go"
	p := quiet()
	p.Headless = true
	x := newSession(t, p)
	x.round(edit(f, "A", "B"))
	x.round(edit(f, "B", "A"))
	x.s = NewTask(x.s)
	x.round(edit(f, "A", "B"))
	if len(x.fired) != 0 {
		t.Errorf("fired %v", kindsOf(x.fired))
	}
}
