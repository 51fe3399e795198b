package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A max_peer figure is checked against the peer measured in the same run,
// and says "peer not available" (no budget checked) without one.
func TestEvaluatePeerBudget(t *testing.T) {
	idle := Budget{Figure: "TUI idle CPU", MaxPeer: true, Unit: "%", Source: SourceTUIIdle}
	wakes := Budget{Figure: "wake-ups", MaxPeer: true, Unit: "", Source: SourceTUIIdle, Metric: MetricWakeups}
	keel := IdleResult{CPUPct: 0.5, WakeupsPerSec: 120}
	cases := []struct {
		name       string
		f          Budget
		peer       *IdleResult
		why        string
		status     string
		peerColumn string
	}{
		{"under the peer", idle, &IdleResult{CPUPct: 0.7}, "", StatusPass, "0.700 % (this run)"},
		{"over the peer", idle, &IdleResult{CPUPct: 0.4}, "", StatusFail, "0.400 % (this run)"},
		{"wake-ups over the peer", wakes, &IdleResult{WakeupsPerSec: 100}, "", StatusFail, "100 (this run)"},
		{"no peer", idle, nil, PeerNotAvailable + " (no -peer)", StatusInfo, PeerNotAvailable + " (no -peer)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := Measurements{TUIIdle: keel, Peer: c.peer, PeerWhy: c.why, Skipped: map[string]string{}}
			rows := Evaluate(Budgets{Figures: []Budget{c.f}}, m, nil)
			if rows[0].Status != c.status || rows[0].Peer != c.peerColumn || rows[0].Budget != "≤ peer" {
				t.Errorf("row = %+v; want status %s, peer %q", rows[0], c.status, c.peerColumn)
			}
		})
	}
}

// The baseline's measurements fill their own column, in the table and in
// the Markdown, beside keel's.
func TestBaselineColumn(t *testing.T) {
	f := Budget{Figure: "keel --version", Max: ptr(40), Unit: "ms", Source: SourceExec, Args: []string{"--version"}}
	m := Measurements{Exec: map[string]float64{"--version": 30}, Skipped: map[string]string{}}
	base := Measurements{Exec: map[string]float64{"--version": 8}, Skipped: map[string]string{}}
	rows := Evaluate(Budgets{Figures: []Budget{f}}, m, &base)
	if rows[0].Measured != "30.0 ms" || rows[0].Baseline != "8.0 ms" {
		t.Fatalf("row = %+v; want measured 30.0 ms, baseline 8.0 ms", rows[0])
	}
	var text, md bytes.Buffer
	if err := WriteTable(&text, rows, "baseline v0.1.0"); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, rows, "baseline v0.1.0"); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{text.String(), md.String()} {
		if !strings.Contains(out, "baseline v0.1.0") || !strings.Contains(out, "8.0 ms") {
			t.Errorf("no baseline column in:\n%s", out)
		}
	}
}

// -baseline auto is the budgets file's ref when the repository has no tag,
// and a ref given by name is taken as it is.
func TestResolveBaseline(t *testing.T) {
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := gitCmd(dir, args...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "f")
	git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--no-verify", "-m", "one")
	t.Chdir(dir)
	b := Budgets{Baseline: "abc1234"}
	if ref, err := resolveBaseline(t.Context(), BaselineAuto, b); err != nil || ref != "abc1234" {
		t.Errorf("no tag: ref %q, err %v; want the budgets file's abc1234", ref, err)
	}
	if _, err := resolveBaseline(t.Context(), BaselineAuto, Budgets{}); err == nil {
		t.Error("no tag and no fallback: want an error")
	}
	git("tag", "v0.1.0")
	if ref, err := resolveBaseline(t.Context(), BaselineAuto, b); err != nil || ref != "v0.1.0" {
		t.Errorf("tagged: ref %q, err %v; want v0.1.0", ref, err)
	}
	if ref, _ := resolveBaseline(t.Context(), "main~3", b); ref != "main~3" {
		t.Errorf("a named ref became %q", ref)
	}
}

// gitCmd is git run in dir.
func gitCmd(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	return cmd
}

func TestMedianIdleTakesEachFigureApart(t *testing.T) {
	got := medianIdle([]IdleResult{{CPUPct: 0.9, WakeupsPerSec: 300}, {CPUPct: 0.7, WakeupsPerSec: 340}, {CPUPct: 1.2, WakeupsPerSec: 310}})
	if got.CPUPct != 0.9 || got.WakeupsPerSec != 310 {
		t.Errorf("medianIdle = %+v, want CPU 0.9 and wake-ups 310 (the median of each, not of one sample)", got)
	}
}

func TestNewTmuxNeverReusesAServerName(t *testing.T) {
	seen := map[string]bool{}
	for range 3 {
		for _, kind := range []string{"idle", "peer", "idle"} {
			name := newTmux(kind, nil).sock
			if seen[name] {
				t.Fatalf("server name %q used twice: a new server would meet the old one shutting down", name)
			}
			seen[name] = true
		}
	}
}
