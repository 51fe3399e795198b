package eval_test

import (
	"strings"
	"testing"

	"github.com/keel-dev/keel/cmd/keel/eval"
	"github.com/keel-dev/keel/cmd/keel/eval/evaltest"
)

// fastTasks need no Go toolchain, so the A/B tests can repeat them.
var fastTasks = []string{"audit-exit", "config-fix", "docs-flag", "shell-fix", "todo-count"}

// A is keel's defaults (reflection_cadence 10, every guard on); B turns
// discipline off.
const (
	settingsOn  = "discipline=on"
	settingsOff = "discipline=off"
)

func metric(t *testing.T, rep *eval.Report, name string) eval.Metric {
	t.Helper()
	for _, m := range rep.Metrics {
		if m.Name == name {
			return m
		}
	}
	t.Fatalf("no metric %s", name)
	return eval.Metric{}
}

func logReport(t *testing.T, rep *eval.Report) {
	t.Helper()
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + b.String())
}

// TestDisciplineReducesWasteForDriftingModels runs each drifting model
// through the real loop with discipline on (A) and off (B): A wastes
// significantly fewer calls, solves at least as often, and the verdict
// names A.
func TestDisciplineReducesWasteForDriftingModels(t *testing.T) {
	for _, kind := range []evaltest.Kind{evaltest.Rereader, evaltest.Retrier, evaltest.Wanderer} {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			rep := scriptedEval(t, kind, suite(t, fastTasks...), 3, settingsOn, settingsOff)
			logReport(t, rep)
			w := metric(t, rep, "wasted_calls")
			if w.A.Value >= w.B.Value || !w.Significant {
				t.Errorf("wasted calls A %.1f, B %.1f (significant %v): discipline should cut them", w.A.Value, w.B.Value, w.Significant)
			}
			if c := metric(t, rep, "tool_calls"); c.A.Value >= c.B.Value {
				t.Errorf("tool calls A %.1f >= B %.1f", c.A.Value, c.B.Value)
			}
			if rep.A.Solved != rep.A.Runs || rep.A.Solved < rep.B.Solved {
				t.Errorf("solved A %d/%d, B %d/%d", rep.A.Solved, rep.A.Runs, rep.B.Solved, rep.B.Runs)
			}
			if rep.Better != eval.ArmA || !strings.HasPrefix(rep.Verdict, "A (discipline=on) did better") {
				t.Errorf("verdict %q", rep.Verdict)
			}
		})
	}
}

// TestDisciplineCostsTheGoodModelNothing: with discipline on, the good
// model solves the same tasks with no more calls, run for run, and no
// wasted call.
func TestDisciplineCostsTheGoodModelNothing(t *testing.T) {
	rep := scriptedEval(t, evaltest.Good, suite(t, fastTasks...), 3, settingsOn, settingsOff)
	logReport(t, rep)
	if rep.A.Solved != rep.A.Runs || rep.B.Solved != rep.B.Runs {
		t.Errorf("solved A %d/%d, B %d/%d: want every run", rep.A.Solved, rep.A.Runs, rep.B.Solved, rep.B.Runs)
	}
	calls := map[string]int{}
	for _, r := range rep.Results {
		if r.Wasted != 0 {
			t.Errorf("%s %s run %d: %d wasted calls", r.Task, r.Arm, r.Run, r.Wasted)
		}
		k := r.Task + "#" + string(rune('0'+r.Run))
		if r.Arm == eval.ArmA {
			calls[k] += r.ToolCalls
		} else {
			calls[k] -= r.ToolCalls
		}
	}
	for k, d := range calls {
		if d > 0 {
			t.Errorf("%s: discipline on made %d more calls", k, d)
		}
	}
	if c := metric(t, rep, "tool_calls"); c.Significant {
		t.Errorf("tool calls differ significantly for the good model: %+v", c)
	}
}
