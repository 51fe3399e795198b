package discipline

import (
	"fmt"
	"reflect"
	"testing"
)

var fuzzFiles = []string{"/w/a/main.go", "/w/b/main.go", "/w/c.go"}

// fuzzCall turns one byte into a call from a small universe, so repeats,
// rereads and streaks actually happen.
func fuzzCall(b byte, version int) ToolCall {
	f := fuzzFiles[int(b>>3)%len(fuzzFiles)]
	v := fmt.Sprint(version)
	switch b % 8 {
	case 0:
		from := int(b>>5)*40 + 1
		return readCall(f, v, from, from+59, 300)
	case 1:
		c := editCall(f, "x", fmt.Sprint(b))
		c.Edits = []Edit{{Path: f, Before: Hash(fmt.Sprint(b >> 6)), After: Hash(fmt.Sprint((b >> 5) & 1))}} // few contents: flip-flops happen
		return c
	case 2:
		return cmdCall("go test ./...", 0, "ok")
	case 3:
		return cmdCall("go test ./...", 1, "FAIL: TestX at line "+fmt.Sprint(b))
	case 4:
		return failedEdit(f, "old text not found")
	case 5:
		return catCall("tail -n 30 x", f, v, 300)
	case 6:
		if b&0x40 != 0 {
			return ToolCall{Name: "job_output", Args: `{"job_id":"1"}`, ResultHash: Hash(fmt.Sprint(b >> 7)), Job: &Job{ID: "1", Running: b&0x80 == 0, NewOutput: int(b>>7) * 10}}
		}
		return cmdCall("ls", 0, "a b c")
	}
	return readCall(f, v, 1, 300, 300)
}

func fuzzPlan(n byte) PlanView {
	statuses := []string{StepPending, StepActive, StepCompleted, StepSkipped}
	var steps []PlanStep
	for i := range int(n % 4) {
		steps = append(steps, PlanStep{Title: fmt.Sprint("step ", i), Status: statuses[(int(n)>>2+i)%4]})
	}
	return PlanView{Goal: "g", Steps: steps}
}

func FuzzAfterRound(f *testing.F) {
	f.Add([]byte{0x03, 0, 0, 0, 0x02, 0, 0, 0x01, 0, 0x20})
	f.Add([]byte{0x01, 4, 0x01, 4, 0x01, 4, 0x01, 4, 0x01, 4, 0x21})
	f.Add([]byte{0x13, 1, 3, 1, 0x20, 0x62, 0x20, 0xff, 0x01, 2})
	f.Add([]byte{0x83, 0, 0, 0, 0x83, 0, 0, 0, 0x83, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1024 {
			data = data[:1024] // a long task is many short ones; keep executions fast
		}
		p := DefaultPolicy()
		p.ReflectionCadence = 3
		p.Set("stall_calls", 5)
		p.Set("monologue_warn", 2)
		p.Set("monologue_halt", 3)
		p.Set("alternation_halt", 4)
		p.Set("plan_continue_max", 2)
		var s State
		version := 0
		for i := 0; i < len(data); {
			h := data[i]
			i++
			if h == 0xff {
				s = NewTask(s)
				continue
			}
			p.Headless = h&0x80 != 0
			sum := RoundSummary{Compacted: h&0x10 != 0, WorldChanged: h&0x08 != 0 && h&0x04 != 0, Plan: fuzzPlan(h >> 2), ContextUsed: int(h) * 100, ContextWindow: 100000}
			for n := int(h % 4); n > 0 && i < len(data); n-- {
				c := fuzzCall(data[i], version)
				if len(c.Changed) > 0 {
					version++
				}
				sum.Calls = append(sum.Calls, c)
				i++
			}
			sum.EndedTurn = len(sum.Calls) == 0 && h&0x20 != 0
			if sum.EndedTurn {
				sum.Text = fmt.Sprint("answer ", h&0x40)
			}
			sum.ToolCalls = s.ToolCalls() + len(sum.Calls)
			s = checkRound(t, sum, p, s)
		}
	})
}

// checkRound runs one round twice from the same state and checks the
// invariants: determinism (so the input state was not written through),
// monotonic counters, and halt never reduced to an inject.
func checkRound(t *testing.T, sum RoundSummary, p Policy, s State) State {
	t.Helper()
	ins, next := AfterRound(sum, p, s)
	ins2, next2 := AfterRound(sum, p, s)
	if !reflect.DeepEqual(ins, ins2) || !reflect.DeepEqual(next, next2) {
		t.Fatalf("AfterRound is not deterministic or wrote through its input state")
	}
	if next.toolCalls < s.toolCalls || next.reflectedAt < s.reflectedAt || next.progressAt < s.progressAt ||
		stallNudgedAt(next) < stallNudgedAt(s) || next.round != s.round+1 || next.reflectedAt > next.toolCalls ||
		(p.ReflectionCadence > 0 && next.reflectedAt%p.ReflectionCadence != 0) {
		t.Fatalf("state went backwards: %+v -> %+v", s, next)
	}
	d := Decide(ins)
	reflections := 0
	for _, in := range ins {
		if !known(in.Kind) || in.Why == "" || in.AtToolCall < 0 || in.AtToolCall > next.toolCalls {
			t.Fatalf("malformed intervention %+v", in)
		}
		if in.Action == Halt && (d.Halt == nil || d.Inject != "") {
			t.Fatalf("a halt ended up as an inject: %+v", d)
		}
		if (in.Action == Halt || in.Action == Ask) && in.StopReason != StopLoopDetected && !(in.Kind == KindPlanContinue && in.StopReason == StopPlanFailed) {
			t.Fatalf("halt without stop reason: %+v", in)
		}
		if in.Kind == KindReflection {
			reflections++
		}
	}
	if reflections > 1 {
		t.Fatalf("%d checkpoints in one round", reflections)
	}
	return next
}

// stallNudgedAt is the stall guard's mark in s (0 before its first nudge).
func stallNudgedAt(s State) int {
	if m := peekState[*stallMark](s, "stall"); m != nil {
		return m.nudgedAt
	}
	return 0
}

func BenchmarkAfterRound(b *testing.B) {
	p := DefaultPolicy()
	var s State
	// A long task's state: 200 files read, some twice, a plan in progress.
	for i := range 200 {
		c := readCall(fmt.Sprintf("/w/pkg%d/f.go", i), "v", 1, 200, 400)
		_, s = AfterRound(RoundSummary{Calls: []ToolCall{c, c}, ToolCalls: s.ToolCalls() + 2}, p, s)
	}
	plan := PlanView{Goal: "g", Steps: []PlanStep{{"a", StepCompleted}, {"b", StepActive}, {"c", StepPending}, {"d", StepPending}}}
	round := []ToolCall{
		readCall("/w/pkg7/f.go", "v", 150, 350, 400),
		editCall("/w/pkg9/f.go", "x", "y"),
		cmdCall("go test ./...", 1, "FAIL: TestY"),
	}
	b.ReportAllocs()
	for b.Loop() {
		AfterRound(RoundSummary{Calls: round, Plan: plan, ToolCalls: s.ToolCalls() + 3, ContextUsed: 9000, ContextWindow: 128000}, p, s)
	}
}
