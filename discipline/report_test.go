package discipline

import (
	"reflect"
	"testing"
)

func TestReport(t *testing.T) {
	p := quiet()
	p.StallThreshold = 3
	x := newSession(t, p)
	x.plan = PlanView{Steps: []PlanStep{{"a", StepActive}, {"b", StepPending}, {"c", StepPending}}}
	x.summary(RoundSummary{Calls: []ToolCall{editCall("/w/1.go", "x", "y"), failedEdit("/w/1.go", "no"), failedEdit("/w/1.go", "no")}, ContextUsed: 30000, ContextWindow: 100000})
	x.round(cmdCall("go test", 1, "FAIL"), cmdCall("go test", 0, "ok"))
	x.plan = PlanView{Steps: []PlanStep{{"a", StepCompleted}, {"b", StepActive}, {"c", StepPending}}}
	for range 4 { // "b" is active in rounds 3 to 6: 4 rounds, more than 3
		x.round(readCall("/w/2.go", "v", 1, 9, 9))
	}
	got := Report(x.s, x.p)
	want := ReflectionReport{
		HasPlan:        true,
		CompletedSince: []string{"a"},
		Stalled:        []StalledStep{{"b", 4}},
		Tools:          []ToolRate{{"edit_file", 1, 3}, {"read_file", 4, 4}, {"run_command", 1, 2}},
		ContextUsed:    0, ContextWindow: 0, // the last round reported none
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Report =\n%+v\nwant\n%+v", got, want)
	}
	if lines := got.Lines(); len(lines) == 0 || got.Tools[0].String() != "edit_file 1/3" {
		t.Errorf("rendering: %q, %q", lines, got.Tools[0].String())
	}
}

func TestReportNotStalledAtThreshold(t *testing.T) {
	p := quiet()
	p.StallThreshold = 3
	x := newSession(t, p)
	x.plan = PlanView{Steps: []PlanStep{{"a", StepActive}}}
	for range 3 { // active in rounds 1 to 3: not more than 3
		x.round(readCall("/w/2.go", "v", 1, 9, 9))
	}
	if st := Report(x.s, x.p).Stalled; len(st) != 0 {
		t.Errorf("stalled at the threshold: %v", st)
	}
	x.p.StallThreshold = 0
	x.round(readCall("/w/2.go", "v", 1, 9, 9))
	if st := Report(x.s, x.p).Stalled; len(st) != 0 {
		t.Errorf("stalled while disabled: %v", st)
	}
}

func TestToolRateNamesStayNeutral(t *testing.T) {
	cases := map[string]string{"grep": "search 3/4", "edit_file": "edit_file 3/4"}
	for tool, want := range cases {
		if got := (ToolRate{Tool: tool, OK: 3, Total: 4}).String(); got != want {
			t.Errorf("%s: %q, want %q", tool, got, want)
		}
	}
}
