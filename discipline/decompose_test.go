package discipline

import (
	"strings"
	"testing"
)

// planOn is a plan whose worked-on step is active, with a parent when
// given ("" for a top-level step).
func planOn(title, parent string) PlanView {
	steps := []PlanStep{{Title: "read", Status: StepPending}}
	v := PlanView{Goal: "g"}
	if parent != "" {
		steps = append(steps, PlanStep{Title: parent, Status: StepActive})
		v.Parents = map[string]string{title: parent}
	}
	v.Steps = append(steps, PlanStep{Title: title, Status: StepActive})
	return v
}

func TestDecompose(t *testing.T) {
	read := ToolCall{Name: "read_file", Args: `{"path":"a"}`, ResultHash: "h"}
	edit := ToolCall{Name: "edit_file", Args: `{"path":"a"}`, ResultHash: "e", Changed: []string{"/a"}}
	type round struct {
		plan  PlanView
		calls int
		edit  bool
		ended bool
	}
	cases := []struct {
		name   string
		n      int
		rounds []round
		fireAt int    // the round (1-based) it fires in; 0: never
		msg    string // in the message
	}{
		{"fires after n calls on one step", 4, []round{{planOn("fix", ""), 2, false, false}, {planOn("fix", ""), 2, false, false}}, 2, `"parent" set to this step's id`},
		{"not before n", 4, []round{{planOn("fix", ""), 3, false, false}}, 0, ""},
		{"once per step", 2, []round{{planOn("fix", ""), 2, false, false}, {planOn("fix", ""), 2, false, false}}, 1, ""},
		{"a new step starts the count again", 3, []round{{planOn("fix", ""), 2, false, false}, {planOn("other", ""), 2, false, false}}, 0, ""},
		{"an edit is progress", 3, []round{{planOn("fix", ""), 2, false, false}, {planOn("fix", ""), 1, true, false}, {planOn("fix", ""), 1, false, false}}, 0, ""},
		{"a sub-step is not split again", 2, []round{{planOn("fix", "p"), 2, false, false}}, 1, "cannot be split again"},
		{"not when the turn ended", 1, []round{{planOn("fix", ""), 0, false, true}}, 0, ""},
		{"off at 0", 0, []round{{planOn("fix", ""), 20, false, false}}, 0, ""},
		{"no plan", 1, []round{{PlanView{}, 5, false, false}}, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := quiet()
			p.Set("stall_calls", 0)
			p.Set("decompose_calls", c.n)
			var st State
			total := 0
			fired := 0
			for i, r := range c.rounds {
				sum := RoundSummary{Plan: r.plan, EndedTurn: r.ended}
				for j := 0; j < r.calls; j++ {
					call := read
					call.Args = strings.Replace(read.Args, "a", string(rune('a'+total)), 1)
					if r.edit && j == r.calls-1 {
						call = edit
					}
					sum.Calls = append(sum.Calls, call)
					total++
				}
				sum.ToolCalls = total
				var ins []Intervention
				ins, st = AfterRound(sum, p, st)
				for _, in := range ins {
					if in.Kind != KindDecompose {
						continue
					}
					if fired != 0 {
						t.Fatalf("fired again in round %d", i+1)
					}
					fired = i + 1
					if !strings.Contains(in.Message, c.msg) || in.Action != Inject {
						t.Errorf("message %q lacks %q", in.Message, c.msg)
					}
				}
			}
			if fired != c.fireAt {
				t.Errorf("fired in round %d, want %d", fired, c.fireAt)
			}
		})
	}
}
