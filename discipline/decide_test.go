package discipline

import (
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
		{"merged in rank order, checkpoint last", []Intervention{inj(KindReflection, "r"), inj(KindReread, "a"), inj(KindVerify, "v")}, "a\n\nv\n\nr", false, false, 3},
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
	p.ReflectionCadence = 2
	x := newSession(t, p)
	x.round(readCall("/w/a.go", "v", 1, 10, 10))
	ins := x.round(readCall("/w/a.go", "v", 1, 10, 10)) // reread and the checkpoint together
	if !hasKind(ins, KindReread) || !hasKind(ins, KindReflection) {
		t.Fatalf("want reread and reflection, got %v", kindsOf(ins))
	}
	d := Decide(ins)
	if !strings.HasPrefix(d.Inject, "Note: ") || !strings.Contains(d.Inject, "[Checkpoint") {
		t.Errorf("merged message:\n%s", d.Inject)
	}
}

func TestInterventionString(t *testing.T) {
	in := Intervention{Kind: KindRepeat, AtToolCall: 7, Action: Inject, Why: "read_file 3 times"}
	if got, want := in.String(), "repeat@7 inject: read_file 3 times"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}
