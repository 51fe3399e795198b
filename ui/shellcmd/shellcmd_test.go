package shellcmd

import (
	"strings"
	"testing"

	"github.com/keel-dev/keel/tools"
)

// TestRunsKeepOutputsForTheNextPrompt: a finished command's output,
// capped, waits for the next prompt once, a failed one's too; an unknown
// id is not one of the runs.
func TestRunsKeepOutputsForTheNextPrompt(t *testing.T) {
	var s Runs
	cancelled := 0
	cancel := func() { cancelled++ }
	ok, failed := s.Start("echo hi", cancel), s.Start("make", cancel)
	if !s.Active() {
		t.Fatal("two commands run")
	}
	zero := 0
	if !s.Finish(DoneMsg{ID: ok, Result: tools.Result{Output: strings.Repeat("x", 100), ExitCode: &zero}}, 10) {
		t.Fatal("a started command is one of the runs")
	}
	two := 2
	s.Finish(DoneMsg{ID: failed, Result: tools.Result{Output: "no rule", ExitCode: &two, IsError: true}}, 10)
	if s.Finish(DoneMsg{ID: 99}, 10) {
		t.Fatal("an unknown id is not one of the runs")
	}
	if s.Active() || cancelled != 2 {
		t.Fatalf("active %v, %d contexts released; want none running, 2 released", s.Active(), cancelled)
	}
	outs := s.Take()
	if len(outs) != 2 || outs[0].Command != "echo hi" || *outs[0].Exit != 0 || len(outs[0].Output) >= 100 || *outs[1].Exit != 2 {
		t.Fatalf("outputs %+v, want both commands', capped", outs)
	}
	if len(s.Take()) != 0 {
		t.Fatal("an output goes with one prompt only")
	}
}

func TestCancelAll(t *testing.T) {
	var s Runs
	cancelled := 0
	s.Start("sleep 9", func() { cancelled++ })
	s.Start("sleep 8", func() { cancelled++ })
	if n := s.CancelAll(); n != 2 || cancelled != 2 {
		t.Fatalf("CancelAll = %d, %d cancelled; want 2, 2", n, cancelled)
	}
}
