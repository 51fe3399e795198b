package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/cmd/keel/eval/evaltest"
)

// TestEvalDisciplineReport writes keel eval's A/B figures over the whole
// bundled suite, for each scripted model, to $KEEL_EVAL_DISCIPLINE_REPORT
// (settings $KEEL_EVAL_A and $KEEL_EVAL_B, $KEEL_EVAL_RUNS runs); with
// KEEL_E2E_BINARY it measures an older build the same way. Issue 27's
// no-regression figures come from it (docs/DISCIPLINE.md); skipped unless
// the report is asked for: it takes many minutes, so each eval gets a
// long deadline of its own rather than runKeelEnv's two minutes.
func TestEvalDisciplineReport(t *testing.T) {
	path := os.Getenv("KEEL_EVAL_DISCIPLINE_REPORT")
	if path == "" {
		t.Skip("set KEEL_EVAL_DISCIPLINE_REPORT=FILE to write the report")
	}
	runs := envOr("KEEL_EVAL_RUNS", "5")
	a, b := envOr("KEEL_EVAL_A", ""), envOr("KEEL_EVAL_B", "discipline=off")
	var sb strings.Builder
	for _, kind := range []evaltest.Kind{evaltest.Good, evaltest.Rereader, evaltest.Retrier, evaltest.Wanderer} {
		rep := evalWithDeadline(t, kind, "--runs", runs, "--a", a, "--b", b, "--parallel", "2")
		fmt.Fprintf(&sb, "## scripted %s, %s runs per task and setting\n", kind, runs)
		fmt.Fprintf(&sb, "A: %s, solved %d/%d; B: %s, solved %d/%d\n", rep.A.Settings, rep.A.Solved, rep.A.Runs, rep.B.Settings, rep.B.Solved, rep.B.Runs)
		for _, m := range rep.Metrics {
			fmt.Fprintf(&sb, "%-16s A %8.3f %s  B %8.3f %s  B-A %8.3f %s  significant %v\n", m.Name, m.A.Value, ci(m.A.CI), m.B.Value, ci(m.B.CI), m.Diff.Value, ci(m.Diff.CI), m.Significant)
		}
		fmt.Fprintf(&sb, "stops: A %s; B %s\nverdict: %s\n\n", stops(rep, "A"), stops(rep, "B"), rep.Verdict)
	}
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// evalWithDeadline runs keel eval --json with the scripted model of kind, with a
// deadline of an hour.
func evalWithDeadline(t *testing.T, kind evaltest.Kind, args ...string) evalReport {
	t.Helper()
	m, err := evaltest.New(kind)
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.Start(t, llmtest.Script{Handler: evaltest.Handler(m)})
	home, tmp := t.TempDir(), t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	cmd := exec.CommandContext(ctx, keelBinary(t), append([]string{"eval", "--json"}, args...)...)
	cmd.Dir = project(t)
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "TMPDIR=" + tmp,
		"XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "XDG_DATA_HOME=" + filepath.Join(home, "data"),
		"OPENAI_API_KEY=sk-test-e2e-secret-123456", "OPENAI_BASE_URL=" + srv.URL(),
		"GOCACHE=" + goEnv(t, "GOCACHE"), "GOMODCACHE=" + goEnv(t, "GOMODCACHE")}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("keel eval: %v; stderr:\n%s", err, errb.String())
	}
	var rep evalReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("stdout is not the JSON report: %v\n%s", err, out.String())
	}
	return rep
}

// stops counts the runs of one arm by stop reason.
func stops(rep evalReport, arm string) string {
	n := map[string]int{}
	for _, r := range rep.Results {
		if r.Arm == arm {
			n[r.StopReason]++
		}
	}
	var parts []string
	for reason, c := range n {
		parts = append(parts, fmt.Sprintf("%s %d", reason, c))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// envOr is the variable's value, or def when it is unset.
func envOr(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}
