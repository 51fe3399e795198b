package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// builtKeel is the repository's bin/keel; the test skips without it
// (make test does not build it; make build does).
func builtKeel(t *testing.T) string {
	t.Helper()
	path := filepath.Join("..", "..", "bin", "keel")
	if _, err := os.Stat(path); err != nil {
		t.Skip("bin/keel is not built; run make build to include this test")
	}
	return path
}

// TestPipeline runs the real binary through a 3-round workload. It checks
// that figures are present and sane, never how fast they are.
func TestPipeline(t *testing.T) {
	keel := builtKeel(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := RunOnce(ctx, keel, Workload{Rounds: 3})
	if err != nil {
		t.Fatal(err)
	}
	if r.Requests != 4 || r.StopReason != "completed" {
		t.Errorf("requests %d, stop %q; want 4 requests, completed", r.Requests, r.StopReason)
	}
	if r.StartMs <= 0 || r.GapMaxMs <= 0 || r.CPUMs <= 0 || r.MaxRSSBytes <= 0 || r.DatalogBytes <= 0 || r.LastRequestBytes <= 0 {
		t.Errorf("a figure is missing: %+v", r)
	}
}

func TestRunJSONOutput(t *testing.T) {
	keel := builtKeel(t)
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"-keel", keel, "-n", "2", "-runs", "1", "-json"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var r Result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || r.Rounds != 2 {
		t.Errorf("output %q: %v", out.String(), err)
	}
}

func TestRunUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"extra"}, &out, &errb); code != 2 {
		t.Errorf("exit %d for a stray argument, want 2", code)
	}
	code := run(context.Background(), []string{"-keel", filepath.Join(t.TempDir(), "nope")}, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "make build") {
		t.Errorf("exit %d, stderr %q; want 1 and a hint to build", code, errb.String())
	}
}

// TestMain lets the test binary stand in for keelbench as the null client.
func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == nullClientArg {
		if err := runNullClient(os.Stdout); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestNullClient runs the workload with the null client in keel's place:
// it must play every round, as keel would, for its gap to be the floor
// under keel's.
func TestNullClient(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := RunOnce(ctx, "unused", Workload{Rounds: 5, NullClient: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Requests != 6 || r.StopReason != "completed" || r.GapMedianMs <= 0 {
		t.Errorf("requests %d, stop %q, gap %.3f ms; want 6 requests, completed, a gap", r.Requests, r.StopReason, r.GapMedianMs)
	}
	if r.LastRequestBytes <= 5*400 {
		t.Errorf("the last request is %.0f bytes: the history did not grow by the tool results", r.LastRequestBytes)
	}
}
