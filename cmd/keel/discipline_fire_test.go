package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/config"
)

// mustFire is drifting work and the guard that must catch it, at the tool
// call it must fire at ("kind@call", in firing order; a turn-ending
// answer fires at the task's call count so far).
type mustFire struct {
	name  string
	su    suite
	fired []string
	stop  agent.StopReason
	check func(t *testing.T, r suiteRun)
}

// TestDisciplineMustFire runs drifting sessions through the real loop with
// the shipped policy (headless) and states where each guard fires:
//
//	reread          third read of the same unchanged lines      call 3
//	repeat          the same call, the same result              warn 3, halt 4
//	error_streak    one command failing the same way (output    note 3, then the
//	                differing run to run, so no repeat)         rerun halt at 4
//	error_streak    one file, new arguments, the same failure   note at its 3rd
//	stall           30 calls, no edit (cadence off)             call 30
//	alternation     A,B,A,B,A,B with identical results          halt 6
//	monologue       the same answer, no tool call, a plan open  warn 3rd; the plan's
//	                                                            plan_failed at the 4th
//	plan_continue   turn ends with steps open                   3 reminders, plan_failed at the 4th
//	verify          turn ends with an unverified edit           at the turn end (call 2)
//	verify          the same after a command's edit (sed -i)    at the turn end (call 1)
//	reflection      cadence 10, three parallel calls a round    12, 21, 30 (the
//	                                                            stall at 30 folded)
func TestDisciplineMustFire(t *testing.T) {
	for _, c := range mustFireCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			run := runSuite(t, c.su)
			st := run.stops[len(run.stops)-1]
			if got := run.fired(); !slices.Equal(got, c.fired) {
				t.Errorf("fired %v, want %v", got, c.fired)
			}
			if st.Reason != c.stop {
				t.Errorf("stop %s (%s), want %s", st.Reason, st.Message, c.stop)
			}
			if c.check != nil {
				c.check(t, run)
			}
		})
	}
}

func mustFireCases() []mustFire {
	a := map[string]string{"a.txt": numbered(50), "b.txt": numbered(20)}
	rerun := repeatRounds(5, tc("run_command", "command", "bash check.sh"))
	failingCheck := map[string]string{"check.sh": "echo \"run $$-$(date +%N)\"\necho 'error: connection refused (is the server on :8080 up?)' >&2\nexit 1\n"}
	var reads31, parallel []llmtest.Round
	for i := 1; i <= 31; i++ {
		reads31 = append(reads31, llmtest.ToolRound(tc("read_file", "path", fmt.Sprintf("f%02d.go", i))))
	}
	for i := 1; i <= 33; i += 3 {
		parallel = append(parallel, llmtest.ToolRound(tc("read_file", "path", fmt.Sprintf("f%02d.go", i)),
			tc("read_file", "path", fmt.Sprintf("f%02d.go", i+1)), tc("read_file", "path", fmt.Sprintf("f%02d.go", i+2))))
	}
	noCadence := func(c *config.Config) { c.ReflectionCadence = 0 }
	edit := func(old string) llmtest.Call {
		return tc("edit_file", "path", "calc.go", "old_string", old, "new_string", "x")
	}
	openPlan := tc("update_plan", "goal", "g", "steps", []map[string]string{{"title": "look", "status": "completed"}, {"title": "fix", "status": "pending"}})
	same := []llmtest.Round{llmtest.ToolRound(openPlan), llmtest.TextRound("Done."), llmtest.TextRound("Done."), llmtest.TextRound("done"), llmtest.TextRound("Done!")}
	oneStep := tc("update_plan", "goal", "g", "steps", []map[string]string{{"title": "fix", "status": "active"}})
	sameOneStep := []llmtest.Round{llmtest.ToolRound(oneStep), llmtest.TextRound("Done."), llmtest.TextRound("Done."), llmtest.TextRound("done"), llmtest.TextRound("Done!"), llmtest.TextRound("Done.")}
	differ := []llmtest.Round{llmtest.ToolRound(openPlan), llmtest.TextRound("I looked."), llmtest.TextRound("It is fine."), llmtest.TextRound("Nothing to fix."), llmtest.TextRound("Stopping.")}
	return []mustFire{
		{"reread: read_file, cat, read_file of the same lines", suite{files: a, rounds: script("ok",
			one(tc("read_file", "path", "a.txt"), tc("run_command", "command", "cat a.txt"), tc("read_file", "path", "a.txt", "limit", 400)))},
			[]string{"reread@3"}, agent.StopCompleted, nil},
		{"repeat: the same command and result four times", suite{files: a, rounds: repeatRounds(4, tc("run_command", "command", "ls"))},
			[]string{"repeat@3", "halt@4"}, agent.StopLoopDetected, nil},
		{"error streak, then rerun: one command failing the same way, nothing changed", suite{files: failingCheck, rounds: rerun},
			[]string{"error_streak@3", "halt@4"}, agent.StopLoopDetected, saysWhatRepeated},
		{"error streak: one file, new arguments, the same failure", suite{files: goModule(false), rounds: script("giving up",
			one(tc("read_file", "path", "calc.go"), edit("nope 1"), edit("nope 2"), edit("nope 3")))},
			[]string{"error_streak@4"}, agent.StopCompleted, noCallingMistakeClaim},
		{"stall: 31 reads without an edit, cadence off", suite{files: goFiles(31), cfg: noCadence, rounds: script("read", reads31)},
			[]string{"stall@30"}, agent.StopCompleted, nil},
		{"alternation: a, b, a, b, a, b", suite{files: a, rounds: repeatRounds(3, tc("read_file", "path", "a.txt"), tc("read_file", "path", "b.txt"))},
			[]string{"reread@5", "halt@6"}, agent.StopLoopDetected, nil},
		{"monologue: the same answer four times, a plan open: the plan's stop", suite{rounds: same},
			[]string{"plan_continue@1", "plan_continue@1", "plan_continue@1", "monologue@1", "halt@1", "plan_continue@1"}, agent.StopPlanFailed, nil},
		{"monologue: the same answer five times, a one-step plan: never completed", suite{rounds: sameOneStep},
			[]string{"plan_continue@1", "plan_continue@1", "plan_continue@1", "monologue@1", "halt@1", "plan_continue@1"}, agent.StopPlanFailed, nil},
		{"plan_continue: four turn ends with steps open", suite{rounds: differ},
			[]string{"plan_continue@1", "plan_continue@1", "plan_continue@1", "plan_continue@1"}, agent.StopPlanFailed, nil},
		{"verify: an edit, then the turn ends", suite{files: goModule(false), rounds: []llmtest.Round{
			llmtest.ToolRound(tc("read_file", "path", "calc.go")), llmtest.ToolRound(edit("a - b")), llmtest.TextRound("fixed"),
			llmtest.ToolRound(tc("run_command", "command", "go vet ./...")), llmtest.TextRound("fixed and vetted")}},
			[]string{"verify@2"}, agent.StopCompleted, nil},
		{"verify: an edit made by a command, then the turn ends", suite{files: goModule(false), rounds: []llmtest.Round{
			llmtest.ToolRound(tc("run_command", "command", "sed -i 's/a - b/a + b/' calc.go")), llmtest.TextRound("fixed"),
			llmtest.ToolRound(tc("run_command", "command", "go vet ./...")), llmtest.TextRound("fixed and vetted")}},
			[]string{"verify@1"}, agent.StopCompleted, nil},
		{"reflection: cadence 10 with three parallel calls a round", suite{files: goFiles(33), rounds: script("audited", parallel)},
			[]string{"reflection@12", "reflection@21", "stall@30", "reflection@30"}, agent.StopCompleted, stallFoldedAt30},
	}
}

// repeatRounds repeats calls, one a round, n times over.
func repeatRounds(n int, calls ...llmtest.Call) []llmtest.Round {
	var rs []llmtest.Round
	for range n {
		for _, c := range calls {
			rs = append(rs, llmtest.ToolRound(c))
		}
	}
	return append(rs, llmtest.TextRound("never reached"))
}

// saysWhatRepeated: the note names the command and the line; the halt
// the command, and that nothing changed between the runs.
func saysWhatRepeated(t *testing.T, r suiteRun) {
	for _, in := range r.interventions("error_streak") {
		if !strings.Contains(in.Why, `"bash check.sh"`) || !strings.Contains(in.Why, "error: connection refused") {
			t.Errorf("error_streak says %q", in.Why)
		}
	}
	for _, in := range r.interventions("halt") {
		if !strings.Contains(in.Why, `"bash check.sh"`) || !strings.Contains(in.Why, "nothing changed between the runs") {
			t.Errorf("halt says %q", in.Why)
		}
	}
	if m := r.interventions("error_streak")[0].Message; strings.Contains(m, "how it is called") {
		t.Errorf("a command that fails the same way is not called wrongly: %q", m)
	}
}

// noCallingMistakeClaim: new arguments each time are not "how it is called".
func noCallingMistakeClaim(t *testing.T, r suiteRun) {
	m := r.interventions("error_streak")[0].Message
	if strings.Contains(m, "how it is called") || !strings.Contains(m, "calc.go") {
		t.Errorf("message %q", m)
	}
}

// stallFoldedAt30: the stall due at 30 is its own event and a line of
// that checkpoint, never a message of its own.
func stallFoldedAt30(t *testing.T, r suiteRun) {
	if st := r.interventions("stall"); len(st) != 1 || strings.HasPrefix(st[0].Message, "Progress check") {
		t.Errorf("stall %+v", st)
	}
	cps := r.interventions("reflection")
	if len(cps) != 3 || !strings.Contains(cps[2].Message, "30 tool calls since the last edit") || strings.Count(cps[2].Message, "[Checkpoint") != 1 {
		t.Errorf("checkpoint at 30: %+v", cps)
	}
	after30 := r.srv.Requests()[10].Messages // the request after round 10 (calls 28-30)
	if m := after30[len(after30)-1]; m.Role != "user" || !strings.HasPrefix(m.Content, "[Checkpoint") || strings.Contains(m.Content, "Progress check") {
		t.Errorf("the message after call 30: %q", m.Content)
	}
}
