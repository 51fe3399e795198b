package discipline

import (
	"fmt"
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
			p.Set("repeat_warn", 0)
			p.Set("repeat_halt", 0) // isolate this rule
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
	p.Set("error_streak", 0)
	p.Set("error_streak_halt", 0)
	p.Set("repeat_warn", 0)
	p.Set("repeat_halt", 0)
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

// pyFail is a Python script's traceback ending in line.
func pyFail(script, line string) ToolCall {
	out := fmt.Sprintf("Traceback (most recent call last):\n  File \"/w/%s\", line 7, in <module>\n    main()\n%s\n[exit code 1, 0.0s]", script, line)
	return cmdCall("python3 "+script, 1, out)
}

// goFail is a go test failure of pkg at line.
func goFail(pkg, line string) ToolCall {
	out := fmt.Sprintf("--- FAIL: TestX (0.00s)\n    %s\nFAIL\nFAIL\texample.com/m/%s\t0.004s\nFAIL\n[exit code 1, 0.3s]", line, pkg)
	return cmdCall("go test ./"+pkg, 1, out)
}

func TestErrorStreakIdentity(t *testing.T) {
	errs := []string{"ZeroDivisionError: division by zero", "KeyError: 'name'", "IndexError: list index out of range",
		"TypeError: can only concatenate str (not \"int\") to str", "NameError: name 'x' is not defined", "AttributeError: 'NoneType' object has no attribute 'split'"}
	var sixPy, samePy, sixGo, sameGoOtherLines []ToolCall
	for i, e := range errs {
		sixPy = append(sixPy, pyFail(fmt.Sprintf("s%d.py", i+1), e))
		samePy = append(samePy, pyFail(fmt.Sprintf("s%d.py", i+1), "ModuleNotFoundError: No module named 'requests'"))
		sixGo = append(sixGo, goFail(fmt.Sprintf("p%d", i+1), fmt.Sprintf("p%d_test.go:12: got %d, want %d", i+1, i, i+1)))
		sameGoOtherLines = append(sameGoOtherLines, goFail("p1", fmt.Sprintf("p1_test.go:%d: case %d failed", 10+i, i)))
	}
	notFound := func(old string) ToolCall {
		c := failedEdit("/w/a.go", "old text not found in /w/a.go")
		c.Args = NormalizeArgs(fmt.Sprintf(`{"path":"/w/a.go","old":%q,"new":"y"}`, old))
		return c
	}
	tests := []struct {
		name   string
		calls  []ToolCall
		streak []int
		says   []string // in the streak's message
		never  string   // never in any message
	}{
		// must not fire
		{"six Python scripts, six different errors", sixPy, []int{}, nil, ""},
		{"six Python scripts, the same error", samePy, []int{}, nil, ""},
		{"six Go packages failing", sixGo, []int{}, nil, ""},
		{"one package, a different failing line each run", sameGoOtherLines, []int{}, nil, ""},
		// must fire
		{"the same script failing the same way", []ToolCall{pyFail("s1.py", errs[0]), pyFail("s1.py", errs[0]), pyFail("s1.py", errs[0])}, []int{3},
			[]string{`The command "python3 s1.py"`, "ZeroDivisionError: division by zero", "3 times"}, "how it is called"},
		{"the same package failing the same way", []ToolCall{goFail("p1", "p1_test.go:12: got 1, want 2"), goFail("p1", "p1_test.go:12: got 1, want 2"), goFail("p1", "p1_test.go:12: got 1, want 2")}, []int{3},
			[]string{`"go test ./p1"`, "p1_test.go:12: got N, want N"}, "how it is called"},
		{"one file, different arguments, the same failure", []ToolCall{notFound("a"), notFound("b"), notFound("c")}, []int{3},
			[]string{"edit_file on /w/a.go", "old text not found", "arguments changed"}, "how it is called"},
		{"the same call, the same failure", []ToolCall{notFound("a"), notFound("a"), notFound("a")}, []int{3},
			[]string{"edit_file", "how it is called"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := quiet()
			isolate(&p, "error_streak")
			x := newSession(t, p)
			for _, c := range tt.calls {
				x.round(c)
			}
			got := of(x.fired, KindErrorStreak)
			if !slices.Equal(calls(got), tt.streak) || hasKind(x.fired, KindHalt) {
				t.Fatalf("error_streak at %v (all: %v), want %v", calls(got), kindsOf(x.fired), tt.streak)
			}
			for _, in := range got {
				for _, w := range tt.says {
					if !strings.Contains(in.Message, w) {
						t.Errorf("message %q lacks %q", in.Message, w)
					}
				}
				if tt.never != "" && (strings.Contains(in.Message, tt.never) || strings.Contains(in.Note, tt.never)) {
					t.Errorf("message %q claims %q", in.Message, tt.never)
				}
			}
		})
	}
}

// The halt names what repeated: the command and the line.
func TestErrorStreakHaltSaysWhatRepeated(t *testing.T) {
	p := quiet()
	p.Headless = true
	p.Set("rerun_warn", 0)
	p.Set("rerun_halt", 0) // the rerun guard would halt first, at 4
	x := newSession(t, p)
	for i := range 5 {
		// The output differs run to run (a seed), so no identical-result
		// repeat: only the streak can catch it.
		c := pyFail("flaky.py", "AssertionError: expected 200, got 500")
		c.ResultHash = Hash(fmt.Sprint("seed ", i))
		x.round(c)
	}
	if got := calls(of(x.fired, KindErrorStreak)); !slices.Equal(got, []int{3}) {
		t.Errorf("note at %v, want [3]", got)
	}
	h := of(x.fired, KindHalt)
	if len(h) != 1 || h[0].AtToolCall != 5 || !strings.Contains(h[0].Why, `"python3 flaky.py"`) || !strings.Contains(h[0].Why, "AssertionError: expected N, got N") {
		t.Fatalf("halt %+v", h)
	}
}

func FuzzFailureLine(f *testing.F) {
	for _, s := range []string{pyTraceback, goTestFail, goBuildFail, goPanic, pytestFail, npmJest, nodeError, cargoFail, makeFail, tscFail, silent, "", "\n\n", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, out string) {
		got := FailureLine(out)
		if got != strings.TrimSpace(got) || strings.Contains(got, "\n") {
			t.Fatalf("FailureLine(%q) = %q: not one trimmed line", out, got)
		}
		if got == "" {
			if strings.TrimSpace(out) != "" {
				t.Fatalf("FailureLine(%q) is empty", out)
			}
			return
		}
		if !slices.Contains(strings.Split(out, "\n"), got) && !strings.Contains(out, got) {
			t.Fatalf("FailureLine(%q) = %q is not a line of it", out, got)
		}
		if again := FailureLine(got); again != got {
			t.Fatalf("not idempotent: %q -> %q", got, again)
		}
	})
}
