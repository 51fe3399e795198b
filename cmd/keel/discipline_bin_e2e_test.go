package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
)

// TestDisciplineThroughTheBinary runs stuck and busy sessions through the
// real binary with the shipped configuration (keel -p, headless: a guard
// stops the task): each class of issue 27 with the case that must fire
// or must not.
//
//	where a command ran     one test in five directories, failing alike   nothing
//	changes outside keel    polling a build whose log grows               nothing
//	                        polling when nothing changes                  repeat 3, halt 4
//	a rerun, nothing changed  one command, a new error text each run      rerun 3, halt 4
//	                        distinct commands failing                     nothing
//	re-reads, any spelling  the same lines in five spellings              reread 3, halt 4
//	                        paging in five spellings                      nothing
//	flip-flops              an edit undone and redone, checks between     halt at the 3rd edit
//	                        a debug line added and removed once           nothing
//	verification            python -m unittest after an edit              nothing
//	outcomes                the same answer, a one-step plan              plan_failed, never completed
//	                        the same answer, a two-step plan              plan_failed
//	                        a stall falling on a checkpoint               its own stall event
//	texts                   one open step; a checkpoint after 4 of 3      "1 open step", why 4
//
// Background jobs have their own cases in jobs_e2e_test.go.
func TestDisciplineThroughTheBinary(t *testing.T) {
	var cases []binCase
	for _, set := range [][]binCase{identityCases(), worldCases(), readCases(), editCases(), outcomeCases()} {
		cases = append(cases, set...)
	}
	runBinCases(t, cases)
}

func identityCases() []binCase {
	fails := "echo 'check: expected 2, got 3' >&2\nexit 1\n"
	five := map[string]string{}
	var inFive []llmtest.Call
	for _, p := range []string{"a", "b", "c", "d", "e"} {
		five["pkg/"+p+"/check.sh"] = fails
		inFive = append(inFive, runCmd("bash check.sh", "pkg/"+p))
	}
	flaky := map[string]string{"flaky.sh": "echo \"error: upstream $(echo $$ | tr 0-9 a-j) refused the connection\" >&2\nexit 1\n"}
	distinct := map[string]string{}
	var triage []llmtest.Call
	for i := 1; i <= 5; i++ {
		distinct[fmt.Sprintf("t%d.sh", i)] = fails
		triage = append(triage, runCmd(fmt.Sprintf("bash t%d.sh", i), ""))
	}
	return []binCase{
		{name: "one check in five directories, failing the same way", files: five, rounds: calls("all five fail", inFive...),
			fired: []string{}, stop: "completed"},
		{name: "one command rerun, a new error text each run, nothing changed", files: flaky,
			rounds: calls("never reached", repeatCall(runCmd("bash flaky.sh", ""), 5)...),
			fired:  []string{"rerun@3", "halt@4"}, stop: "loop_detected", check: saysNothingChanged},
		{name: "five distinct checks failing the same way", files: distinct, rounds: calls("triaged", triage...),
			fired: []string{}, stop: "completed"},
	}
}

// saysNothingChanged: the halt says why a rerun cannot help.
func saysNothingChanged(t *testing.T, r binRun) {
	h := r.of("halt")
	if len(h) != 1 || !strings.Contains(fmt.Sprint(h[0]["why"]), `"bash flaky.sh" failed 4 times with nothing changed`) {
		t.Errorf("halt %v", h)
	}
}

func worldCases() []binCase {
	poll := runCmd("test -f build/done && echo done || echo running", "")
	growing := func(dir string, n int, _ llmtest.RecordedRequest) llmtest.Round {
		// The build keel did not start writes its log between rounds.
		f, _ := os.OpenFile(filepath.Join(dir, "build", "out.log"), os.O_APPEND|os.O_WRONLY, 0o644)
		fmt.Fprintf(f, "compiled unit %d\n", n)
		f.Close()
		if n < 7 {
			return llmtest.ToolRound(poll)
		}
		return llmtest.TextRound("the build is still running")
	}
	log := map[string]string{"build/out.log": "build started\n", "Makefile": "all:\n\ttrue\n"}
	return []binCase{
		{name: "polling a build whose log grows, started outside keel", files: log, handle: growing,
			fired: []string{}, stop: "completed"},
		{name: "polling when nothing changes", files: log, rounds: calls("never reached", repeatCall(poll, 5)...),
			fired: []string{"repeat@3", "halt@4"}, stop: "loop_detected"},
	}
}

func readCases() []binCase {
	a := map[string]string{"a.go": numbered(40)}
	same := []llmtest.Call{
		tc("read_file", "path", "a.go"),
		runCmd("cat a.go", ""),
		runCmd("head -n 40 a.go", ""),
		runCmd("sed -n '1,40p' a.go", ""),
		runCmd("awk 'NR>=1 && NR<=40' a.go", ""),
	}
	paging := []llmtest.Call{
		runCmd("sed -n '1,10p' a.go", ""),
		runCmd("awk 'NR>=11 && NR<=20' a.go", ""),
		runCmd("head -n 30 a.go | tail -n 10", ""),
		tc("read_file", "path", "a.go", "offset", 31, "limit", 10),
		runCmd("tail -n 5 a.go", ""),
	}
	return []binCase{
		{name: "the same lines in five spellings", files: a, rounds: calls("never reached", same...),
			fired: []string{"reread@3", "halt@4"}, stop: "loop_detected"},
		{name: "paging through a file in five spellings", files: a, rounds: calls("read it", paging...),
			fired: []string{}, stop: "completed"},
	}
}

func editCases() []binCase {
	calc := map[string]string{"calc.go": "package calc\n\nfunc Add(a, b int) int { return a - b }\n",
		"check.sh": "grep -q 'a \\* 1 + b' calc.go || { echo 'FAIL: Add(1, 2) = 3, want 3 with the scale' >&2; exit 1; }\n",
		"Makefile": "check:\n\t@bash check.sh\n"}
	edit := func(from, to string) llmtest.Call {
		return tc("edit_file", "path", "calc.go", "old_string", from, "new_string", to)
	}
	check := runCmd("make check", "")          // a check keel counts as verifying
	read := tc("read_file", "path", "calc.go") // keel edits only what the model has read
	flip := calls("never reached", read, edit("a - b", "a + b"), check, edit("a + b", "a - b"), check, edit("a - b", "a + b"), check)
	debug := calls("fixed", read, edit("return a - b", "println(a); return a - b"), check,
		edit("println(a); return a - b", "return a - b"), edit("a - b", "a * 1 + b"), check)
	py := map[string]string{"calc.py": "def add(a, b):\n    return a - b\n",
		"test_calc.py": "import unittest\nimport calc\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(calc.add(1, 2), 3)\n"}
	return []binCase{
		{name: "an edit undone and redone, a check after each", files: calc, rounds: flip,
			fired: []string{"halt@6"}, stop: "loop_detected", check: saysFlipFlop},
		{name: "a debug line added and removed once", files: calc, rounds: debug,
			fired: []string{}, stop: "completed"},
		{name: "python -m unittest verifies an edit", files: py, rounds: calls("fixed and tested", tc("read_file", "path", "calc.py"),
			tc("edit_file", "path", "calc.py", "old_string", "a - b", "new_string", "a + b"), runCmd("python -m unittest -q", "")),
			fired: []string{}, stop: "completed", check: needsPython},
	}
}

// saysFlipFlop: the halt names the file and says it went back again.
func saysFlipFlop(t *testing.T, r binRun) {
	h := r.of("halt")
	if len(h) != 1 || !strings.Contains(fmt.Sprint(h[0]["why"]), "calc.go went back to a content it already had in this task for the second time") {
		t.Errorf("halt %v", h)
	}
}

// needsPython: the case proves nothing without a working python.
func needsPython(t *testing.T, r binRun) {
	res := r.toolResults("run_command")
	if len(res) != 1 || res[0]["exit_code"] != float64(0) {
		t.Errorf("python -m unittest did not pass: %v", res)
	}
}

func outcomeCases() []binCase {
	oneStep := tc("update_plan", "goal", "g", "steps", []map[string]string{{"title": "fix", "status": "active"}})
	twoSteps := tc("update_plan", "goal", "g", "steps", []map[string]string{{"title": "look", "status": "completed"}, {"title": "fix", "status": "pending"}})
	same := func(plan llmtest.Call) []llmtest.Round {
		rs := []llmtest.Round{llmtest.ToolRound(plan)}
		for range 6 {
			rs = append(rs, llmtest.TextRound("Done."))
		}
		return rs
	}
	sameFired := []string{"plan_continue@1", "plan_continue@1", "plan_continue@1", "monologue@1", "halt@1", "plan_continue@1"}
	var reads30 []llmtest.Call
	files := map[string]string{}
	for i := 1; i <= 30; i++ {
		files[fmt.Sprintf("f%02d.go", i)] = fmt.Sprintf("package f\n\nconst N%d = %d\n", i, i)
		reads30 = append(reads30, tc("read_file", "path", fmt.Sprintf("f%02d.go", i)))
	}
	pairs := []llmtest.Round{
		llmtest.ToolRound(tc("read_file", "path", "f01.go"), tc("read_file", "path", "f02.go")),
		llmtest.ToolRound(tc("read_file", "path", "f03.go"), tc("read_file", "path", "f04.go")),
		llmtest.TextRound("read four"),
	}
	allDone := tc("update_plan", "goal", "g", "steps", []map[string]string{{"title": "look", "status": "completed"}, {"title": "fix", "status": "completed"}})
	openAfterEdit := []llmtest.Round{llmtest.ToolRound(twoSteps), llmtest.ToolRound(tc("write_file", "path", "x.go", "content", "package x\n")),
		llmtest.TextRound("Done."), llmtest.ToolRound(allDone), llmtest.TextRound("Everything is done.")}
	return []binCase{
		{name: "the same answer with a one-step plan: never completed", rounds: same(oneStep), fired: sameFired, stop: "plan_failed"},
		{name: "the same answer with a two-step plan: plan_failed", rounds: same(twoSteps), fired: sameFired, stop: "plan_failed"},
		{name: "a stall falling on a checkpoint is its own event", files: files, rounds: calls("audited", reads30...),
			fired: []string{"reflection@10", "reflection@20", "stall@30", "reflection@30"}, stop: "completed", check: stallStored},
		{name: "a checkpoint after 4 calls at cadence 3 says why", files: files, rounds: pairs, args: []string{"--reflection-cadence", "3"},
			fired: []string{"reflection@4"}, stop: "completed", check: saysWhyFour},
		{name: "one open step is one open step", files: files, rounds: openAfterEdit,
			fired: []string{"verify@2", "plan_continue@2"}, stop: "completed", check: oneOpenStep},
	}
}

// stallStored: the stall is in the datalog too, beside the checkpoint.
func stallStored(t *testing.T, r binRun) {
	var n int
	if err := r.db(t).QueryRow(`SELECT COUNT(*) FROM interventions WHERE kind = 'stall'`).Scan(&n); err != nil || n != 1 {
		t.Errorf("%d stall rows in the datalog (%v), want 1", n, err)
	}
}

// saysWhyFour: the card explains 4 calls at cadence 3.
func saysWhyFour(t *testing.T, r binRun) {
	why := fmt.Sprint(r.of("reflection")[0]["why"])
	if !strings.HasPrefix(why, "checkpoint after 4 tool calls (cadence 3: due at call 3, the round's calls went on to call 4)") {
		t.Errorf("why %q", why)
	}
}

// oneOpenStep: the merged notes say "1 open step".
func oneOpenStep(t *testing.T, r binRun) {
	reqs := r.srv.Requests()
	last := reqs[3].Messages // after the first "Done.": verify and the plan reminder, merged
	msg := last[len(last)-1].Content
	if !strings.Contains(msg, "your plan still has 1 open step:") || strings.Contains(msg, "1 open steps") {
		t.Errorf("merged notes %q", msg)
	}
}

// repeatCall repeats one call n times.
func repeatCall(c llmtest.Call, n int) []llmtest.Call {
	out := make([]llmtest.Call, n)
	for i := range out {
		out[i] = c
	}
	return out
}
