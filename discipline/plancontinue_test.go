package discipline

import (
	"slices"
	"strings"
	"testing"
)

func TestPlanContinue(t *testing.T) {
	open := PlanView{Goal: "g", Steps: []PlanStep{{"one", StepCompleted}, {"two", StepActive}, {"three", StepPending}}}
	moved := PlanView{Goal: "g", Steps: []PlanStep{{"one", StepCompleted}, {"two", StepCompleted}, {"three", StepActive}}}
	done := PlanView{Goal: "g", Steps: []PlanStep{{"one", StepCompleted}, {"two", StepSkipped}, {"three", StepFailed}}}
	tests := []struct {
		name  string
		plans []PlanView // one round each; every round ends the turn
		want  []int      // rounds where it fired
		off   bool
	}{
		{"open steps at the end of a turn", []PlanView{open}, []int{0}, false},
		{"again once the plan moved", []PlanView{open, moved}, []int{0, 1}, false},
		{"not twice for the same plan", []PlanView{open, open}, []int{0}, false},
		{"no open steps", []PlanView{done}, []int{}, false},
		{"no plan", []PlanView{{}}, []int{}, false},
		{"disabled", []PlanView{open}, []int{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := newSession(t, quiet())
			x.p.Set("plan_continue", !tt.off)
			got := []int{}
			for i, pl := range tt.plans {
				x.plan = pl
				if hasKind(x.end(), KindPlanContinue) {
					got = append(got, i)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("fired in rounds %v, want %v", got, tt.want)
			}
		})
	}
}

func TestPlanContinueOnlyWhenTurnEnds(t *testing.T) {
	x := newSession(t, quiet())
	x.plan = PlanView{Steps: []PlanStep{{"a", StepActive}, {"b", StepPending}}}
	x.round(readCall("/w/a.go", "v", 1, 5, 5))
	if hasKind(x.fired, KindPlanContinue) {
		t.Fatal("fired while the model was still working")
	}
	ins := of(x.end(), KindPlanContinue)
	if len(ins) != 1 || !strings.Contains(ins[0].Message, `"a"`) || !strings.Contains(ins[0].Message, `"b"`) {
		t.Errorf("want one message listing a and b, got %v", ins)
	}
}

// With a limit, the reminders go on at every turn end without progress,
// then the task stops with plan_failed instead of ending "completed".
func TestPlanContinueLimit(t *testing.T) {
	open := PlanView{Goal: "g", Steps: []PlanStep{{"one", StepCompleted}, {"two", StepActive}, {"three", StepPending}}}
	moved := PlanView{Goal: "g", Steps: []PlanStep{{"one", StepCompleted}, {"two", StepCompleted}, {"three", StepActive}}}
	tests := []struct {
		name     string
		plans    []PlanView
		headless bool
		want     string // per turn end: r reminder, S stop, . nothing
	}{
		{"three reminders, then the stop (headless)", []PlanView{open, open, open, open}, true, "rrrS"},
		{"three reminders, then a question (interactive)", []PlanView{open, open, open, open}, false, "rrrS"},
		{"progress resets the count", []PlanView{open, open, moved, moved, moved, moved}, true, "rrrrrS"},
		{"the count starts again after the stop", []PlanView{open, open, open, open, open}, true, "rrrSr"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := quiet()
			p.Set("plan_continue_max", 3)
			p.Headless = tt.headless
			x := newSession(t, p)
			var got strings.Builder
			for _, pl := range tt.plans {
				x.plan = pl
				ins := of(x.end(), KindPlanContinue)
				switch {
				case len(ins) == 0:
					got.WriteByte('.')
				case ins[0].Action == Inject:
					got.WriteByte('r')
				default:
					got.WriteByte('S')
					want := map[bool]Action{true: Halt, false: Ask}[tt.headless]
					if ins[0].Action != want || ins[0].StopReason != StopPlanFailed || !strings.Contains(ins[0].Why, `"three"`) {
						t.Errorf("stop = %+v", ins[0])
					}
				}
			}
			if got.String() != tt.want {
				t.Errorf("turn ends %q, want %q", got.String(), tt.want)
			}
		})
	}
}
