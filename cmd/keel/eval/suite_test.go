package eval_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/keel-dev/keel/cmd/keel/eval"
	"github.com/keel-dev/keel/cmd/keel/eval/evaltest"
	"github.com/keel-dev/keel/tools"
)

func TestSuiteTasksAreComplete(t *testing.T) {
	tasks := suite(t)
	if len(tasks) < 8 {
		t.Fatalf("the suite has %d tasks, want at least 8", len(tasks))
	}
	for _, task := range tasks {
		t.Run(task.Name, func(t *testing.T) {
			switch {
			case task.Title == "" || task.Prompt == "":
				t.Error("no title or prompt")
			case task.Probe == "":
				t.Error("no probe")
			case len(task.Reference.Steps) == 0 || task.Reference.Answer == "":
				t.Error("no reference solution")
			case len(task.FileNames()) == 0:
				t.Error("no project files")
			}
		})
	}
}

// TestUntouchedProjectIsNotSolved: a checker that accepts the project as
// it starts, with no answer, decides nothing.
func TestUntouchedProjectIsNotSolved(t *testing.T) {
	for _, task := range suite(t) {
		t.Run(task.Name, func(t *testing.T) {
			dir := extract(t, task)
			v, err := task.Judge(context.Background(), dir, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			if v.Solved {
				t.Error("the untouched project counts as solved")
			}
		})
	}
}

// TestProbeFailsOnUntouchedProject: the retrier's command must fail, or
// it would not be a failing command to repeat.
func TestProbeFailsOnUntouchedProject(t *testing.T) {
	for _, task := range suite(t) {
		t.Run(task.Name, func(t *testing.T) {
			if out, ok := bash(t, extract(t, task), task.Probe); ok {
				t.Errorf("probe %q succeeded: %s", task.Probe, out)
			}
		})
	}
}

// TestReferenceSolvesEveryTask plays every reference solution through the
// real loop and tools, with discipline on and off: each is solved, with
// no wasted call.
func TestReferenceSolvesEveryTask(t *testing.T) {
	tasks := suite(t)
	rep := scriptedEval(t, evaltest.Good, tasks, 1, "discipline=on", "discipline=off")
	for _, r := range rep.Results {
		if !r.Solved || r.StopReason != "completed" {
			t.Errorf("%s %s: solved %v, stop %s: %v", r.Task, r.Arm, r.Solved, r.StopReason, r.Failures)
		}
		if r.Wasted != 0 && !strings.HasPrefix(r.Task, "failing-test") {
			t.Errorf("%s %s: %d wasted calls (%+v)", r.Task, r.Arm, r.Wasted, r.Waste)
		}
	}
}

func TestSelect(t *testing.T) {
	all := suite(t)
	tests := []struct {
		names   []string
		want    []string
		wantErr string
	}{
		{nil, nil, ""},
		{[]string{"rename", "config-fix"}, []string{"config-fix", "rename"}, ""},
		{[]string{"config-fix", "nope"}, nil, `unknown task "nope": the tasks are audit-exit, config-fix`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.names, ","), func(t *testing.T) {
			got, err := eval.Select(all, tt.names)
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q…", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == nil {
				if len(got) != len(all) {
					t.Errorf("no names selected %d tasks, want all %d", len(got), len(all))
				}
				return
			}
			var names []string
			for _, g := range got {
				names = append(names, g.Name)
			}
			if strings.Join(names, ",") != strings.Join(tt.want, ",") {
				t.Errorf("selected %v, want %v", names, tt.want)
			}
		})
	}
}

// TestTaskRulesAllowTheReference: a task's permission rules let its
// reference solution and its probe run headless without asking.
func TestTaskRulesAllowTheReference(t *testing.T) {
	for _, task := range suite(t) {
		t.Run(task.Name, func(t *testing.T) {
			ws, err := tools.NewWorkspace(extract(t, task))
			if err != nil {
				t.Fatal(err)
			}
			p, err := tools.NewPolicy(ws, tools.PolicyOptions{Allow: task.Allow})
			if err != nil {
				t.Fatal(err)
			}
			probe, _ := json.Marshal(map[string]string{"command": task.Probe})
			steps := append([]eval.Step{{Tool: "run_command", Args: probe}}, task.Reference.Steps...)
			for _, s := range steps {
				if d := p.Decide(s.Tool, s.Args); d.Verdict != tools.Allow {
					t.Errorf("%s %s: %s (%s)", s.Tool, s.Args, d.Verdict, d.Reason)
				}
			}
		})
	}
}
