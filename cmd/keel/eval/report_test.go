package eval_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/keel-dev/keel/cmd/keel/eval"
)

// runsOf makes n pairs of runs on task "t": A and B solve as told and
// waste wa[i] and wb[i] calls.
func runsOf(solvedA, solvedB []bool, wa, wb []int) []eval.RunResult {
	var out []eval.RunResult
	for i := range wa {
		out = append(out,
			eval.RunResult{Task: "t", Arm: eval.ArmA, Run: i + 1, Solved: solvedA[i], Wasted: wa[i], ToolCalls: 5 + wa[i], Tokens: 1000},
			eval.RunResult{Task: "t", Arm: eval.ArmB, Run: i + 1, Solved: solvedB[i], Wasted: wb[i], ToolCalls: 5 + wb[i], Tokens: 1000})
	}
	return out
}

func repeat[T any](v T, n int) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func TestSummarizeVerdict(t *testing.T) {
	yes, no := repeat(true, 20), repeat(false, 20)
	half := append(repeat(true, 10), repeat(false, 10)...)
	tests := []struct {
		name         string
		results      []eval.RunResult
		better, want string
	}{
		{"solve rate decides", runsOf(yes, half, repeat(0, 20), repeat(0, 20)), eval.ArmA, "A (reflection_cadence=10) did better than B (reflection_cadence=0): it solved 100% of runs against 50%"},
		{"solve rate decides even against waste", runsOf(no, half, repeat(0, 20), repeat(4, 20)), eval.ArmB, "B (reflection_cadence=0) did better than A (reflection_cadence=10): it solved 50% of runs against 0%"},
		{"waste decides when solve rates agree", runsOf(yes, yes, repeat(1, 20), []int{4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5}), eval.ArmA,
			"A (reflection_cadence=10) did better than B (reflection_cadence=0): 3.5 fewer wasted calls per run (B−A +3.5"},
		{"noise decides nothing", runsOf(yes, yes, []int{1, 2, 1, 2}, []int{2, 1, 2, 1}), "", "No significant difference between A (reflection_cadence=10) and B (reflection_cadence=0) over 4 runs each"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := eval.Summarize("m", []*eval.Task{{Name: "t"}}, len(tt.results)/2, settings(t, "reflection_cadence=10"), settings(t, "reflection_cadence=0"), tt.results)
			if rep.Better != tt.better || !strings.HasPrefix(rep.Verdict, tt.want) {
				t.Errorf("better %q, verdict %q; want %q, %q…", rep.Better, rep.Verdict, tt.better, tt.want)
			}
			if strings.Count(rep.Verdict, "\n") != 0 {
				t.Errorf("the verdict is not one line: %q", rep.Verdict)
			}
		})
	}
}

func TestReportTextAndJSON(t *testing.T) {
	results := runsOf(repeat(true, 4), []bool{true, true, false, true}, []int{0, 1, 0, 1}, []int{3, 4, 5, 3})
	cost := 0.0125
	for i := range results {
		results[i].CostUSD = &cost
	}
	a, b := settings(t, "reflection_cadence=10"), settings(t, "reflection_cadence=0")
	rep := eval.Summarize("gpt-test", []*eval.Task{{Name: "t"}}, 4, a, b, results)
	var text strings.Builder
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"keel eval · model gpt-test · 1 tasks × 4 runs per setting",
		"A: reflection_cadence=10", "B: reflection_cadence=0",
		"solved          4/4 100%", "3/4 75%",
		"wasted calls", "  rereads", "cost            $0.0125",
		"t      4/4        3/4",
		"Wilson score", "paired t",
		"A (reflection_cadence=10) did better than B (reflection_cadence=0): 3.2 fewer wasted calls per run",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, text.String())
		}
	}
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"name":"wasted_calls"`, `"b_minus_a":{"value":3.25,"ci95":[`, `"better":"A"`, `"runs":[{"task":"t","arm":"A"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the JSON lacks %s:\n%s", want, data)
		}
	}
}

func TestReportWithoutPricesOrPairs(t *testing.T) {
	rep := eval.Summarize("m", []*eval.Task{{Name: "t"}}, 1, settings(t, ""), settings(t, "guards=off"), runsOf([]bool{true}, []bool{true}, []int{0}, []int{1}))
	var text strings.Builder
	_ = rep.WriteText(&text)
	if !rep.CostUnknown || !strings.Contains(text.String(), "cost: unknown") {
		t.Errorf("cost without prices:\n%s", text.String())
	}
	if !strings.Contains(text.String(), "+1.0 n/a") || rep.Better != "" {
		t.Errorf("one pair should give no interval and no winner:\n%s", text.String())
	}
	if _, err := json.Marshal(rep); err != nil {
		t.Errorf("a report without intervals does not encode: %v", err)
	}
}
