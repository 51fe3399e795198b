package discipline

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestDecide(t *testing.T) {
	inj := func(k Kind, msg string) Intervention { return Intervention{Kind: k, Action: Inject, Message: msg} }
	halt := Intervention{Kind: KindHalt, Action: Halt, StopReason: StopLoopDetected, Message: "stopped"}
	ask := Intervention{Kind: KindHalt, Action: Ask, StopReason: StopLoopDetected, Message: "asked"}
	tests := []struct {
		name     string
		in       []Intervention
		inject   string
		halt     bool
		ask      bool
		shownLen int
	}{
		{"nothing", nil, "", false, false, 0},
		{"one inject", []Intervention{inj(KindStall, "s")}, "s", false, false, 1},
		{"merged in rank order, checkpoint last", []Intervention{inj(KindReflection, "r"), inj(KindReread, "a"), inj(KindVerify, "v")}, "Notes from keel:\n- a\n- v\n- r", false, false, 3},
		{"notes, not messages, when several", []Intervention{{Kind: KindReread, Action: Inject, Message: "long a", Note: "a"}, {Kind: KindRepeat, Action: Inject, Message: "long b", Note: "b"}}, "Notes from keel:\n- b\n- a", false, false, 2},
		{"folded findings are not sent again", []Intervention{{Kind: KindReread, Action: Inject, Message: "a", Folded: true}, inj(KindReflection, "r")}, "r", false, false, 2},
		{"halt beats inject", []Intervention{inj(KindReflection, "r"), halt}, "", true, false, 2},
		{"halt beats ask", []Intervention{ask, halt, inj(KindRepeat, "x")}, "", true, false, 3},
		{"ask keeps the inject for a continue", []Intervention{inj(KindReread, "a"), ask}, "a", false, true, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Decide(tt.in)
			if d.Inject != tt.inject || (d.Halt != nil) != tt.halt || (d.Ask != nil) != tt.ask || len(d.Shown) != tt.shownLen {
				t.Errorf("Decide = inject %q halt %v ask %v shown %d; want %q %v %v %d", d.Inject, d.Halt != nil, d.Ask != nil, len(d.Shown), tt.inject, tt.halt, tt.ask, tt.shownLen)
			}
			if d.Halt != nil && d.Halt.Action != Halt {
				t.Errorf("Halt holds %v", d.Halt)
			}
		})
	}
}

func TestOneMergedMessagePerRound(t *testing.T) {
	p := DefaultPolicy()
	p.ReflectionCadence = 3
	x := newSession(t, p)
	x.round(readCall("/w/a.go", "v", 1, 10, 10))
	x.round(readCall("/w/a.go", "v", 1, 10, 10))
	ins := x.round(readCall("/w/a.go", "v", 1, 10, 10)) // reread and the checkpoint together
	if !hasKind(ins, KindReread) || !hasKind(ins, KindReflection) {
		t.Fatalf("want reread and reflection, got %v", kindsOf(ins))
	}
	d := Decide(ins)
	if !strings.HasPrefix(d.Inject, "[Checkpoint") || !strings.Contains(d.Inject, "Also this round:\n- /w/a.go lines 1-10") || strings.Contains(d.Inject, "Note: ") {
		t.Errorf("merged message:\n%s", d.Inject)
	}
	if strings.Count(d.Inject, "/w/a.go lines 1-10") != 1 {
		t.Errorf("the reread is stated more than once:\n%s", d.Inject)
	}
}

// At call 30 of a read-only audit the stall nudge falls due with the
// checkpoint: one message, the checkpoint, with the stall's fact in its
// text; the stall is still its own finding (folded), so its card, event
// and datalog row are there.
func TestStallFoldsIntoCheckpoint(t *testing.T) {
	p := DefaultPolicy()
	p.ReflectionCadence = 10
	p.Set("stall_calls", 30)
	x := newSession(t, p)
	var at30 []Intervention
	for i := 1; i <= 30; i++ {
		at30 = x.round(readCall(fmt.Sprintf("/w/f%d.go", i), "v", 1, 10, 10))
	}
	if got := kindsOf(x.fired); !slices.Equal(got, []Kind{KindReflection, KindReflection, KindStall, KindReflection}) {
		t.Fatalf("fired %v, want three checkpoints and the stall at 30", got)
	}
	d := Decide(at30)
	if !strings.Contains(d.Inject, "30 tool calls since the last edit") || strings.Count(d.Inject, "[Checkpoint") != 1 ||
		strings.Contains(d.Inject, "Progress check") {
		t.Errorf("checkpoint at 30:\n%s", d.Inject)
	}
	stall, cp := at30[0], at30[1]
	if !stall.Folded || stall.AtToolCall != 30 || cp.Figures["since_progress"] != 30 {
		t.Errorf("stall %+v, checkpoint figures %v", stall, cp.Figures)
	}
}

func TestInterventionString(t *testing.T) {
	in := Intervention{Kind: KindRepeat, AtToolCall: 7, Action: Inject, Why: "read_file 3 times"}
	if got, want := in.String(), "repeat@7 inject: read_file 3 times"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// A card shows what the model was sent: the note when a finding went as
// a line of a list or of the checkpoint.
func TestShownCarriesWhatWasSent(t *testing.T) {
	one := Decide([]Intervention{{Kind: KindReread, Action: Inject, Message: "long a", Note: "a"}})
	if one.Shown[0].Message != "long a" {
		t.Errorf("a lone finding's message = %q", one.Shown[0].Message)
	}
	two := Decide([]Intervention{{Kind: KindReread, Action: Inject, Message: "long a", Note: "a"}, {Kind: KindRepeat, Action: Inject, Message: "long b", Note: "b"}})
	folded := Decide([]Intervention{{Kind: KindReread, Action: Inject, Message: "long a", Note: "a", Folded: true}, {Kind: KindReflection, Action: Inject, Message: "cp"}})
	for _, d := range []Decision{two, folded} {
		for _, in := range d.Shown {
			if strings.HasPrefix(in.Message, "long") {
				t.Errorf("shown %s with the unsent message %q", in.Kind, in.Message)
			}
		}
	}
	if folded.Inject != "cp" {
		t.Errorf("inject = %q", folded.Inject)
	}
}

// A turn that ends with an unverified edit and an open plan gets one
// short list, not two messages back to back.
func TestTurnEndFindingsShareOneMessage(t *testing.T) {
	x := newSession(t, quiet())
	x.plan = PlanView{Goal: "g", Steps: []PlanStep{{"fix", StepCompleted}, {"test", StepPending}}}
	x.round(editCall("/w/a.go", "a", "b"))
	ins := x.summary(RoundSummary{EndedTurn: true, Text: "done"})
	if !hasKind(ins, KindVerify) || !hasKind(ins, KindPlanContinue) {
		t.Fatalf("fired %v", kindsOf(ins))
	}
	d := Decide(ins)
	if !strings.HasPrefix(d.Inject, "Notes from keel:\n- ") || strings.Count(d.Inject, "\n- ") != 2 || strings.Contains(d.Inject, "\n\n") ||
		strings.Contains(d.Inject, "ended your turn") || strings.Contains(d.Inject, "Your plan") {
		t.Errorf("message:\n%s", d.Inject)
	}
}

// A model that ends its turn with the same answer and two plan steps open:
// at the fourth answer both the monologue and the plan rule stop the task;
// the plan rule's plan_failed is the outcome, as documented. A monologue
// stop never replans; a tool loop's may.
func TestPlanStopWinsAndMonologueNeverReplans(t *testing.T) {
	p := quiet()
	p.Headless = true
	p.Set("plan_continue_max", 3)
	p.Set("monologue_warn", 3)
	p.Set("monologue_halt", 4)
	x := newSession(t, p)
	x.plan = PlanView{Goal: "g", Steps: []PlanStep{{"a", StepActive}, {"b", StepPending}}}
	var last []Intervention
	for range 4 {
		last = x.summary(RoundSummary{EndedTurn: true, Text: "Done."})
	}
	d := Decide(last)
	if d.Halt == nil || d.Halt.StopReason != StopPlanFailed || d.Halt.Kind != KindPlanContinue || d.Halt.Replan {
		t.Fatalf("halt %+v, want the plan rule's plan_failed", d.Halt)
	}
	mono := of(last, KindHalt)
	if len(mono) != 1 || mono[0].Replan {
		t.Errorf("monologue stop %+v must not replan", mono)
	}
	y := newSession(t, p)
	for range 4 {
		y.round(readCall("/w/a.go", "v", 1, 5, 5))
	}
	if h := of(y.fired, KindHalt); len(h) != 1 || !h[0].Replan {
		t.Errorf("a read loop's stop %+v should allow a replan", h)
	}
	if d := Decide([]Intervention{{Kind: KindHalt, Action: Halt, StopReason: StopLoopDetected}, {Kind: KindPlanContinue, Action: Halt, StopReason: StopPlanFailed}}); d.Halt.StopReason != StopPlanFailed {
		t.Errorf("Decide chose %s", d.Halt.StopReason)
	}
}
