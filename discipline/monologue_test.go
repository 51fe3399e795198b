package discipline

import (
	"slices"
	"strings"
	"testing"
)

func TestMonologue(t *testing.T) {
	tests := []struct {
		name     string
		turns    []string // "" + "call:" prefix runs a tool round instead
		headless bool
		warn     []int // turn indexes (0-based) where the warning fired
		halt     []int
	}{
		// must fire
		{"same answer 3 times: warn; 4: halt", []string{"Done.", "Done.", "Done.", "Done."}, true, []int{2}, []int{3}},
		{"normalized: case, spaces, final punctuation", []string{"All done.", "all  done", "ALL DONE!", "All done"}, false, []int{2}, []int{3}},
		{"the run counts again after a halt", []string{"x", "x", "x", "x", "x", "x", "x"}, true, []int{2, 6}, []int{3}},
		// must not fire
		{"twice", []string{"Done.", "Done."}, true, []int{}, []int{}},
		{"different answers", []string{"Step one is done.", "Step two is done.", "Step three is done.", "Step four is done."}, true, []int{}, []int{}},
		{"a tool call between answers", []string{"Done.", "Done.", "call:", "Done.", "Done."}, true, []int{}, []int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := quiet()
			p.Set("monologue_warn", 3)
			p.Set("monologue_halt", 4)
			p.Headless = tt.headless
			x := newSession(t, p)
			warn, halt := []int{}, []int{}
			for i, text := range tt.turns {
				if strings.HasPrefix(text, "call:") {
					x.round(readCall("/w/a.go", "v", i, i, 100))
					continue
				}
				ins := x.summary(RoundSummary{EndedTurn: true, Text: text})
				if hasKind(ins, KindMonologue) {
					warn = append(warn, i)
				}
				for _, h := range of(ins, KindHalt) {
					halt = append(halt, i)
					want := map[bool]Action{true: Halt, false: Ask}[tt.headless]
					if h.Action != want || h.StopReason != StopLoopDetected || !strings.Contains(h.Message, "same answer") {
						t.Errorf("halt %+v", h)
					}
				}
			}
			if !slices.Equal(warn, tt.warn) || !slices.Equal(halt, tt.halt) {
				t.Errorf("warn at %v halt at %v, want %v %v", warn, halt, tt.warn, tt.halt)
			}
		})
	}
}

func TestMonologueDisabledAndPerTask(t *testing.T) {
	x := newSession(t, quiet()) // MonologueWarn and MonologueHalt 0
	for range 6 {
		x.summary(RoundSummary{EndedTurn: true, Text: "Done."})
	}
	if len(x.fired) != 0 {
		t.Errorf("fired while disabled: %v", kindsOf(x.fired))
	}
	p := quiet()
	p.Set("monologue_warn", 3)
	p.Set("monologue_halt", 4)
	x = newSession(t, p)
	for range 2 {
		x.summary(RoundSummary{EndedTurn: true, Text: "Done."})
		x.s = NewTask(x.s) // one answer per task: a chat, not a monologue
	}
	x.summary(RoundSummary{EndedTurn: true, Text: "Done."})
	if len(x.fired) != 0 {
		t.Errorf("counted across tasks: %v", kindsOf(x.fired))
	}
}

func TestNormalizeText(t *testing.T) {
	for in, want := range map[string]string{
		"  Done.  ":            "done",
		"All\n\tdone!!":        "all done",
		"3 of 5 steps done.":   "3 of 5 steps done",
		"":                     "",
		"What next?":           "what next",
		"«quoted» text.":       "«quoted» text",
		"I am done (finally).": "i am done (finally)",
	} {
		if got := NormalizeText(in); got != want {
			t.Errorf("NormalizeText(%q) = %q, want %q", in, got, want)
		}
	}
}
