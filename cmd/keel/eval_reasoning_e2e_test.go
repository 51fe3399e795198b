package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/cmd/keel/eval/evaltest"
)

// runEval runs keel eval --json with the scripted model of kind against
// the fake server and returns the report.
func runEval(t *testing.T, kind evaltest.Kind, args ...string) evalReport {
	t.Helper()
	m, err := evaltest.New(kind)
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.Start(t, llmtest.Script{Handler: evaltest.Handler(m)})
	home, tmp, dir := t.TempDir(), t.TempDir(), project(t)
	out, errOut, code := runKeelEnv(t, home, []string{"TMPDIR=" + tmp}, srv, dir, "", append([]string{"eval", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, errOut)
	}
	var rep evalReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("stdout is not the JSON report: %v\n%s", err, out)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "keel-eval-*")); len(left) > 0 {
		t.Errorf("temporary directories left behind: %v", left)
	}
	return rep
}

// TestEvalLessonsOnAgainstOff: with lessons on, a run of a task is offered
// the lessons of the task's earlier runs (the eval's own datalog, one
// project per task); the scripted retrier skips the drift a lesson names,
// so from its second run on it wastes fewer calls than with lessons off.
func TestEvalLessonsOnAgainstOff(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	rep := runEval(t, evaltest.Retrier, "--runs", "2", "--tasks", "failing-test", "--a", "memory.lessons=true", "--b", "memory.lessons=false", "--parallel", "1")
	wasted := findMetric(t, rep, "wasted_calls")
	if wasted.A.Value >= wasted.B.Value || rep.A.Solved < rep.B.Solved {
		t.Errorf("with lessons: wasted %.2f, solved %d; without: %.2f, %d: lessons should end the retrier's drift in run 2",
			wasted.A.Value, rep.A.Solved, wasted.B.Value, rep.B.Solved)
	}
}

// TestEvalStructuredAgainstFreeText: both kinds of checkpoint run through
// the suite; structured checkpoints are answered with reflect calls.
func TestEvalStructuredAgainstFreeText(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	rep := runEval(t, evaltest.Wanderer, "--runs", "1", "--tasks", "rename", "--a", "reflection_structured=true", "--b", "reflection_structured=false", "--parallel", "2")
	for _, r := range rep.Results {
		if !r.Solved || r.StopReason != "completed" {
			t.Errorf("%s %s: solved %v, stop %s", r.Task, r.Arm, r.Solved, r.StopReason)
		}
	}
}

// TestEvalReasoningReport writes the A/B figures of issue 28 (structured
// against free-text reflection, lessons on against off, for each drifting
// scripted model over the whole suite) to $KEEL_EVAL_REPORT; skipped
// unless it is set: it takes minutes.
func TestEvalReasoningReport(t *testing.T) {
	path := os.Getenv("KEEL_EVAL_REPORT")
	if path == "" {
		t.Skip("set KEEL_EVAL_REPORT=FILE to write the report")
	}
	runs := os.Getenv("KEEL_EVAL_RUNS")
	if runs == "" {
		runs = "5"
	}
	var b strings.Builder
	for _, cmp := range []struct{ name, a, b, parallel string }{
		{"structured against free-text reflection", "reflection_structured=true", "reflection_structured=false", "2"},
		{"lessons on against off", "memory.lessons=true", "memory.lessons=false", "1"}, // in order: run n learns from runs 1..n-1
	} {
		for _, kind := range []evaltest.Kind{evaltest.Rereader, evaltest.Retrier, evaltest.Wanderer} {
			rep := runEval(t, kind, "--runs", runs, "--a", cmp.a, "--b", cmp.b, "--parallel", cmp.parallel)
			fmt.Fprintf(&b, "## %s, scripted %s, %s runs per task and setting\n", cmp.name, kind, runs)
			fmt.Fprintf(&b, "A: %s, solved %d/%d; B: %s, solved %d/%d\n", rep.A.Settings, rep.A.Solved, rep.A.Runs, rep.B.Settings, rep.B.Solved, rep.B.Runs)
			for _, m := range rep.Metrics {
				fmt.Fprintf(&b, "%-16s A %8.3f %s  B %8.3f %s  B-A %8.3f %s  significant %v\n", m.Name, m.A.Value, ci(m.A.CI), m.B.Value, ci(m.B.CI), m.Diff.Value, ci(m.Diff.CI), m.Significant)
			}
			fmt.Fprintf(&b, "verdict: %s\n\n", rep.Verdict)
		}
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func ci(c *[2]float64) string {
	if c == nil {
		return "[   n/a   ]"
	}
	return fmt.Sprintf("[%.3f, %.3f]", c[0], c[1])
}
