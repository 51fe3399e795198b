package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/cmd/keel/eval/evaltest"
)

// evalReport is the part of keel eval --json the tests read.
type evalReport struct {
	Model string   `json:"model"`
	Tasks []string `json:"tasks"`
	Runs  int      `json:"runs_per_task"`
	A, B  struct {
		Settings     string
		Solved, Runs int
	}
	Metrics []evalMetric
	Better  string `json:"better"`
	Verdict string `json:"verdict"`
	Results []struct {
		Task, Arm  string
		Solved     bool
		StopReason string `json:"stop_reason"`
		Wasted     int    `json:"wasted_calls"`
	} `json:"runs"`
}

// evalMetric is one row of the JSON report.
type evalMetric struct {
	Name        string
	A, B        evalEstimate
	Diff        evalEstimate `json:"b_minus_a"`
	Significant bool
}

type evalEstimate struct {
	Value float64
	CI    *[2]float64 `json:"ci95"`
}

// TestEvalJSONThroughTheBinary runs keel eval --json, the real binary
// against the fake HTTP server serving the scripted rereader, on two
// tasks (one whose checker runs a command in the sandbox) with --runs 2.
func TestEvalJSONThroughTheBinary(t *testing.T) {
	m, err := evaltest.New(evaltest.Rereader)
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.Start(t, llmtest.Script{Handler: evaltest.Handler(m)})
	home, tmp, dir := t.TempDir(), t.TempDir(), project(t)
	out, errOut, code := runKeelEnv(t, home, []string{"TMPDIR=" + tmp}, srv, dir, "",
		"eval", "--json", "--runs", "2", "--tasks", "config-fix,shell-fix", "--a", "discipline=on", "--b", "discipline=off", "--parallel", "2")
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, errOut)
	}
	var rep evalReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("stdout is not the JSON report: %v\n%s", err, out)
	}
	if rep.Runs != 2 || strings.Join(rep.Tasks, ",") != "config-fix,shell-fix" || len(rep.Results) != 8 {
		t.Fatalf("runs %d, tasks %v, %d results; want 2, [config-fix shell-fix], 8", rep.Runs, rep.Tasks, len(rep.Results))
	}
	for _, r := range rep.Results {
		if !r.Solved || r.StopReason != "completed" {
			t.Errorf("%s %s: solved %v, stop %s", r.Task, r.Arm, r.Solved, r.StopReason)
		}
	}
	wasted := findMetric(t, rep, "wasted_calls")
	if wasted.A.Value >= wasted.B.Value || wasted.Diff.CI == nil {
		t.Errorf("wasted calls A %.1f, B %.1f, CI %v: discipline should cut the rereads", wasted.A.Value, wasted.B.Value, wasted.Diff.CI)
	}
	// Two runs a task are few: the difference need not be significant
	// (the drift length varies by run), but B must never come out ahead.
	if rep.Better == "B" || rep.Verdict == "" {
		t.Errorf("better %q, verdict %q", rep.Better, rep.Verdict)
	}
	if n := strings.Count(errOut, "keel eval: ["); n != 8 {
		t.Errorf("%d progress lines on stderr, want 8:\n%s", n, errOut)
	}
	assertUntouched(t, home, tmp, dir)
}

func findMetric(t *testing.T, rep evalReport, name string) evalMetric {
	t.Helper()
	for _, m := range rep.Metrics {
		if m.Name == name {
			return m
		}
	}
	t.Fatalf("no metric %s in the report", name)
	return rep.Metrics[0]
}

// assertUntouched: the project keel ran in is as it was, the temporary
// copies are gone, and no datalog was written.
func assertUntouched(t *testing.T, home, tmp, dir string) {
	t.Helper()
	if data, _ := os.ReadFile(filepath.Join(dir, "main.go")); string(data) != "package main\n\nfunc main() {}\n" {
		t.Errorf("the working directory's main.go changed: %q", data)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("the working directory holds %d entries, want its 2 files", len(entries))
	}
	left, _ := filepath.Glob(filepath.Join(tmp, "keel-eval-*"))
	if len(left) > 0 {
		t.Errorf("temporary copies left behind: %v", left)
	}
	if _, err := os.Stat(filepath.Join(home, "data", "keel", "keel.db")); err == nil {
		t.Error("keel eval wrote the user's datalog")
	}
}

// TestEvalBadInput: each mistake gets one sentence on stderr and exit 2,
// before any model is called.
func TestEvalBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown task", []string{"--tasks", "config-fix,nope"}, `keel: --tasks: unknown task "nope": the tasks are audit-exit,`},
		{"unknown setting", []string{"--a", "cadence=3"}, `keel: --a: unknown setting "cadence"`},
		{"bad number", []string{"--b", "reflection_cadence=-1"}, `keel: --b: reflection_cadence must be a whole number of 0 or more, not "-1"`},
		{"bad switch", []string{"--a", "guards=maybe"}, `keel: --a: guards must be on or off, not "maybe"`},
		{"not key=value", []string{"--a", "reflection_cadence"}, `keel: --a: "reflection_cadence" is not key=value`},
		{"no runs", []string{"--runs", "0"}, "keel: --runs takes a number of 1 or more, not 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := runKeel(t, nil, project(t), "", append([]string{"eval"}, tt.args...)...)
			if code != 2 {
				t.Errorf("exit %d, want 2; stderr: %s", code, errOut)
			}
			if !strings.HasPrefix(errOut, tt.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
				t.Errorf("stderr %q, want one line starting %q", errOut, tt.want)
			}
		})
	}
}

func TestEvalList(t *testing.T) {
	out, errOut, code := runKeel(t, nil, project(t), "", "eval", "--list")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, name := range []string{"demo-bug", "failing-test", "rename", "config-fix", "audit-exit"} {
		if !strings.Contains(out, name) {
			t.Errorf("--list does not name %s:\n%s", name, out)
		}
	}
}
