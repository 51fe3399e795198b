package discipline

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestErrorStreak(t *testing.T) {
	notFound := func(line int) ToolCall {
		return failedEdit("/w/a.go", "old text not found in /w/a.go (searched 120 lines, closest at line "+strconv.Itoa(line)+")\nhint...")
	}
	ok := readCall("/w/a.go", "v", 1, 10, 10)
	tests := []struct {
		name     string
		calls    []ToolCall
		headless bool
		streak   []int
		halt     []int
	}{
		{"same failure three times", []ToolCall{notFound(1), notFound(2), notFound(3)}, false, []int{3}, []int{}},
		{"other tools succeeding in between do not break it", []ToolCall{notFound(1), ok, notFound(2), readCall("/w/b.go", "v", 1, 5, 5), notFound(3)}, false, []int{5}, []int{}},
		{"five in a row ask the user", []ToolCall{notFound(1), notFound(2), notFound(3), notFound(4), notFound(5)}, false, []int{3}, []int{5}},
		{"five in a row halt headless", []ToolCall{notFound(1), notFound(2), notFound(3), notFound(4), notFound(5)}, true, []int{3}, []int{5}},
		{"temp paths and addresses normalised", []ToolCall{
			cmdCall("./bin", 2, "panic at 0xc000123 in /tmp/go-build111/x"),
			cmdCall("./bin", 2, "panic at 0xc000999 in /tmp/go-build222/x"),
			cmdCall("./bin", 2, "panic at 0xc000abc in /tmp/go-build333/x"),
		}, false, []int{3}, []int{}},
		{"the same silent command failing three times", []ToolCall{cmdCall("./check", 1, "(no output)\n[exit code 1, 0.0s]"), cmdCall("./check", 1, "(no output)\n[exit code 1, 0.2s]"), cmdCall("./check", 1, "(no output)\n[exit code 1, 0.1s]")}, false, []int{3}, []int{}},
		// must not fire
		{"different failures", []ToolCall{failedEdit("/w/a.go", "not found"), failedEdit("/w/a.go", "ambiguous: 2 matches"), failedEdit("/w/a.go", "not found")}, false, []int{}, []int{}},
		{"a success of the tool resets", []ToolCall{notFound(1), notFound(2), editCall("/w/b.go", "x", "y"), notFound(3), notFound(4)}, false, []int{}, []int{}},
		{"edit, test fails, edit, test fails the same way", []ToolCall{cmdCall("go test", 1, "FAIL: TestX"), editCall("/w/a.go", "1", "2"), cmdCall("go test", 1, "FAIL: TestX"), editCall("/w/a.go", "2", "3"), cmdCall("go test", 1, "FAIL: TestX")}, false, []int{}, []int{}},
		{"three searches that found nothing", []ToolCall{cmdCall("rg foo", 1, "(no output)\n[exit code 1, 0.0s]"), cmdCall("rg bar", 1, "(no output)\n[exit code 1, 0.0s]"), cmdCall("rg baz", 1, "(no output)\n[exit code 1, 0.1s]")}, false, []int{}, []int{}},
		{"two tools with the same message, two each", []ToolCall{failedEdit("/w/a.go", "permission denied"), cmdCall("touch a", 1, "permission denied"), failedEdit("/w/a.go", "permission denied"), cmdCall("touch a", 1, "permission denied")}, false, []int{}, []int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := quiet()
			p.Headless = tt.headless
			p.RepeatWarn, p.RepeatHalt = 0, 0 // isolate this rule
			x := newSession(t, p)
			for _, c := range tt.calls {
				x.round(c)
			}
			if got := calls(of(x.fired, KindErrorStreak)); !slices.Equal(got, tt.streak) {
				t.Errorf("error_streak at %v, want %v", got, tt.streak)
			}
			if got := calls(of(x.fired, KindHalt)); !slices.Equal(got, tt.halt) {
				t.Errorf("halt at %v, want %v", got, tt.halt)
			}
			for _, h := range of(x.fired, KindHalt) {
				if (h.Action == Halt) != tt.headless {
					t.Errorf("halt action %s with headless %v", h.Action, tt.headless)
				}
			}
		})
	}
}

func TestErrorStreakMessage(t *testing.T) {
	x := newSession(t, quiet())
	for range 3 {
		x.round(failedEdit("/w/a.go", "old text not found"))
	}
	ins := of(x.fired, KindErrorStreak)
	if len(ins) != 1 {
		t.Fatalf("want one error_streak, got %v", kindsOf(x.fired))
	}
	for _, want := range []string{"edit_file", "3 times", "how it is called", "not transient", "old text not found"} {
		if !strings.Contains(ins[0].Message, want) {
			t.Errorf("message %q lacks %q", ins[0].Message, want)
		}
	}
}

func TestErrorStreakDisabled(t *testing.T) {
	p := quiet()
	p.ErrorStreak, p.ErrorStreakHalt, p.RepeatWarn, p.RepeatHalt = 0, 0, 0, 0
	x := newSession(t, p)
	for range 10 {
		x.round(failedEdit("/w/a.go", "nope"))
	}
	if len(x.fired) != 0 {
		t.Errorf("fired while disabled: %v", kindsOf(x.fired))
	}
}

func TestStreakNoteReplacesRepeatWarning(t *testing.T) {
	x := newSession(t, quiet())
	var third []Intervention
	for range 3 {
		third = x.round(failedEdit("/w/a.go", "old text not found"))
	}
	if got := kindsOf(third); len(got) != 1 || got[0] != KindErrorStreak {
		t.Errorf("third identical failure drew %v, want only error_streak", got)
	}
	if got := kindsOf(x.round(failedEdit("/w/a.go", "old text not found"))); len(got) != 1 || got[0] != KindHalt {
		t.Errorf("fourth identical failure drew %v, want halt", got)
	}
}
