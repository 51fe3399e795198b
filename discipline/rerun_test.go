package discipline

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// flaky is one run of a command that fails with a different text each
// time (a timestamp), in dir.
func flaky(command, dir string, run int) ToolCall {
	c := cmdCall(command, 1, fmt.Sprintf("error: connection refused at %d.%d (attempt %d)\n[exit code 1, 0.1s]", 1700000000+run, run*7, run))
	c.Workdir = dir
	c.Args = NormalizeArgs(fmt.Sprintf(`{"command":%q,"workdir":%q}`, command, dir))
	return c
}

func TestRerun(t *testing.T) {
	type step struct {
		call  ToolCall
		world bool // the workspace check saw a change before this round
	}
	runs := func(command, dir string, n int) []step {
		var out []step
		for i := range n {
			out = append(out, step{call: flaky(command, dir, i)})
		}
		return out
	}
	tests := []struct {
		name string
		seq  []step
		note []int // rerun notes at these calls
		halt []int // halts at these calls
	}{
		// must fire
		{"one command, a different error each run, nothing changed", runs("./check.sh", "", 5), []int{3}, []int{4}},
		{"reads between the runs change nothing", func() []step {
			var out []step
			for i := range 4 {
				out = append(out, step{call: flaky("make test", "", i)}, step{call: readCall("/w/a.go", "v", 1, 10, 10)})
			}
			return out
		}(), []int{5}, []int{7}},
		{"in the same directory, spelled differently", []step{{call: flaky("go test", "pkg/a", 0)}, {call: flaky("go test", "./pkg/a", 1)}, {call: flaky("go test", "pkg/a/", 2)}, {call: flaky("go  test", "pkg/a", 3)}},
			[]int{3}, []int{4}},
		// must not fire
		{"the same command in five directories", []step{{call: flaky("go test", "pkg/a", 0)}, {call: flaky("go test", "pkg/b", 1)}, {call: flaky("go test", "pkg/c", 2)}, {call: flaky("go test", "pkg/d", 3)}, {call: flaky("go test", "pkg/e", 4)}},
			nil, nil},
		{"an edit between the runs", []step{{call: flaky("make", "", 0)}, {call: flaky("make", "", 1)}, {call: editCall("/w/a.go", "x", "y")}, {call: flaky("make", "", 2)}, {call: flaky("make", "", 3)}},
			nil, nil},
		{"a change outside keel between the runs", []step{{call: flaky("make", "", 0)}, {call: flaky("make", "", 1)}, {call: flaky("make", "", 2), world: true}, {call: flaky("make", "", 3)}},
			nil, nil},
		{"a success between the runs", []step{{call: flaky("make", "", 0)}, {call: flaky("make", "", 1)}, {call: cmdCall("make", 0, "ok")}, {call: flaky("make", "", 2)}, {call: flaky("make", "", 3)}},
			nil, nil},
		{"distinct tests failing", []step{{call: flaky("go test -run TestA", "", 0)}, {call: flaky("go test -run TestB", "", 1)}, {call: flaky("go test -run TestC", "", 2)}, {call: flaky("go test -run TestD", "", 3)}},
			nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := quiet()
			isolate(&p, "rerun")
			p.Headless = true
			x := newSession(t, p)
			for _, st := range tt.seq {
				x.summary(RoundSummary{Calls: []ToolCall{st.call}, WorldChanged: st.world})
			}
			if got := calls(of(x.fired, KindRerun)); !slices.Equal(got, orEmpty(tt.note)) {
				t.Errorf("notes at %v, want %v", got, tt.note)
			}
			if got := calls(of(x.fired, KindHalt)); !slices.Equal(got, orEmpty(tt.halt)) {
				t.Errorf("halts at %v, want %v", got, tt.halt)
			}
			for _, in := range x.fired {
				if in.Kind == KindHalt && (!strings.Contains(in.Message, "nothing changed between the runs") || in.StopReason != StopLoopDetected) {
					t.Errorf("halt %+v", in)
				}
			}
		})
	}
}

// The shipped order: a failing command with the same text is noted by the
// error streak at 3 (its note names the line) and stopped by the rerun
// guard at 4, before the streak's own halt at 5.
func TestRerunStopsBeforeTheStreak(t *testing.T) {
	p := quiet()
	p.Headless = true
	x := newSession(t, p)
	for i := range 4 {
		c := pyFail("flaky.py", "AssertionError: expected 200, got 500")
		c.ResultHash = Hash(fmt.Sprint("seed ", i))
		x.round(c)
	}
	if got := kindsOf(x.fired); !slices.Equal(got, []Kind{KindErrorStreak, KindHalt}) {
		t.Fatalf("fired %v", got)
	}
	if h := x.fired[1]; h.AtToolCall != 4 || !strings.Contains(h.Why, "nothing changed between the runs") {
		t.Errorf("halt %+v", h)
	}
}

func orEmpty(ns []int) []int {
	if ns == nil {
		return []int{}
	}
	return ns
}
