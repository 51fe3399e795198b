package headless

import (
	"testing"

	"github.com/keel-dev/keel/agent"
)

func TestSubtypeOfEveryStopReason(t *testing.T) {
	cases := []struct {
		reason agent.StopReason
		want   string
	}{
		{agent.StopCompleted, SubtypeSuccess},
		{agent.StopMaxTurns, SubtypeMaxTurns},
		{agent.StopMaxToolCalls, SubtypeMaxTurns},
		{agent.StopTokenBudget, SubtypeDuringExecution},
		{agent.StopLoopDetected, SubtypeDuringExecution},
		{agent.StopPlanFailed, SubtypeDuringExecution},
		{agent.StopCancelled, SubtypeDuringExecution},
		{agent.StopProviderError, SubtypeDuringExecution},
		{agent.StopContextOverflow, SubtypeDuringExecution},
		{agent.StopDatalog, SubtypeDatalog},
	}
	for _, c := range cases {
		t.Run(string(c.reason), func(t *testing.T) {
			if got := Subtype(c.reason); got != c.want {
				t.Errorf("Subtype(%s) = %q, want %q", c.reason, got, c.want)
			}
			r := NewResult("s1", "m", agent.TaskStopped{Reason: c.reason})
			if r.Type != "result" || r.Subtype != c.want || r.IsError != (c.reason != agent.StopCompleted) {
				t.Errorf("NewResult(%s) = type %q subtype %q is_error %v", c.reason, r.Type, r.Subtype, r.IsError)
			}
		})
	}
}

func TestTotalCostIsCostOrZero(t *testing.T) {
	cost := 0.25
	cases := []struct {
		name string
		cost *float64
		want float64
	}{{"priced", &cost, 0.25}, {"no prices", nil, 0}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := agent.TaskStopped{Reason: agent.StopCompleted, Summary: agent.TaskSummary{Turns: 4, CostUSD: c.cost}}
			r := NewResult("s1", "m", st)
			if r.TotalCostUSD != c.want || r.CostUSD != c.cost || r.NumTurns != 4 || r.Turns != 4 {
				t.Errorf("result = total %v cost %v num_turns %d turns %d", r.TotalCostUSD, r.CostUSD, r.NumTurns, r.Turns)
			}
		})
	}
}
