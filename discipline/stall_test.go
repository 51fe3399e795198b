package discipline

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// audit makes n distinct read-only calls, perRound per round.
func audit(x *session, n, perRound int) {
	for i := 0; i < n; {
		var round []ToolCall
		for j := 0; j < perRound && i < n; j++ {
			i++
			round = append(round, readCall(fmt.Sprintf("/w/pkg%d/file.go", i), "v", 1, 80, 80))
		}
		x.round(round...)
	}
}

func TestReadOnlyAuditOnlyNudges(t *testing.T) {
	x := newSession(t, quiet())
	audit(x, 60, 1)
	if got := calls(x.fired); !slices.Equal(got, []int{30, 60}) {
		t.Errorf("fired at %v (%v), want stall at [30 60] only", got, kindsOf(x.fired))
	}
	for _, in := range x.fired {
		if in.Kind != KindStall || in.Action != Inject {
			t.Errorf("unexpected %v", in)
		}
	}
	// With every default on, the audit gets checkpoints too but never a halt.
	x = newSession(t, DefaultPolicy())
	audit(x, 60, 1)
	for _, in := range x.fired {
		if in.Action != Inject || (in.Kind != KindStall && in.Kind != KindReflection) {
			t.Errorf("audit drew %v", in)
		}
	}
}

func TestStall(t *testing.T) {
	tests := []struct {
		name  string
		run   func(x *session)
		stall []int
	}{
		{"a round jumping past 30 fires once, next after 30 more", func(x *session) { audit(x, 70, 4) }, []int{32, 64}},
		{"an edit restarts the count", func(x *session) {
			audit(x, 20, 1)
			x.round(editCall("/w/a.go", "a", "b"))
			audit(x, 35, 1)
		}, []int{51}},
		{"a completed plan step restarts the count", func(x *session) {
			x.plan = PlanView{Steps: []PlanStep{{"survey", StepActive}, {"report", StepPending}}}
			audit(x, 25, 1)
			x.plan = PlanView{Steps: []PlanStep{{"survey", StepCompleted}, {"report", StepActive}}}
			audit(x, 25, 1)
		}, []int{}},
		{"29 calls: nothing", func(x *session) { audit(x, 29, 1) }, []int{}},
		{"not on a finished turn", func(x *session) {
			audit(x, 29, 1)
			x.p.Set("stall_calls", 10)
			x.end()
		}, []int{}},
		{"disabled", func(x *session) { x.p.Set("stall_calls", 0); audit(x, 100, 1) }, []int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := newSession(t, quiet())
			tt.run(x)
			if got := calls(of(x.fired, KindStall)); !slices.Equal(got, tt.stall) {
				t.Errorf("stall at %v, want %v", got, tt.stall)
			}
		})
	}
}

func TestStallMessageShowsPlan(t *testing.T) {
	x := newSession(t, quiet())
	x.plan = PlanView{Steps: []PlanStep{{"map the code", StepCompleted}, {"find the bug", StepActive}, {"fix it", StepPending}}}
	audit(x, 31, 1) // the completed step counts as progress at call 1
	ins := of(x.fired, KindStall)
	if len(ins) != 1 {
		t.Fatalf("want one stall, got %v", kindsOf(x.fired))
	}
	for _, want := range []string{"30 tool calls", "1 of 3 steps completed", `"find the bug"`, `"fix it"`} {
		if !strings.Contains(ins[0].Message, want) {
			t.Errorf("message %q lacks %q", ins[0].Message, want)
		}
	}
}
