package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/config"
	"github.com/keel-dev/keel/discipline"
)

// noFire is a legitimate session: it must end completed with no guard
// firing; the only interventions are the scheduled checkpoints, at the
// tool calls listed, and a read-only audit's stall nudge where it falls
// on a checkpoint: its own event, but only a line of that checkpoint.
type noFire struct {
	name        string
	su          suite
	checkpoints []int
	failing     int   // tool calls that fail (the triage is of failures)
	folded      []int // checkpoints that carry a stall nudge
}

// TestDisciplineMustNotFire runs legitimate work through the real loop
// with the shipped policy (headless, so a guard would halt with exit 3):
// 0 guard halts, 0 warnings, checkpoints only where the cadence puts them.
func TestDisciplineMustNotFire(t *testing.T) {
	var cases []noFire
	for _, set := range [][]noFire{triageSessions(), readingSessions(), editingSessions(), planningSessions()} {
		cases = append(cases, set...)
	}
	if len(cases) < 15 {
		t.Fatalf("only %d legitimate sessions", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			run := runSuite(t, c.su)
			for i, st := range run.stops {
				if st.Reason != agent.StopCompleted {
					t.Fatalf("task %d stopped %s: %s\nfired: %v", i+1, st.Reason, st.Message, run.fired())
				}
			}
			want := []string{}
			for _, n := range c.checkpoints {
				if slices.Contains(c.folded, n) {
					want = append(want, fmt.Sprintf("stall@%d", n))
				}
				want = append(want, fmt.Sprintf("reflection@%d", n))
			}
			if got := run.fired(); !slices.Equal(append([]string{}, got...), want) {
				t.Errorf("fired %v, want %v", got, want)
			}
			for _, in := range run.interventions("stall") {
				if strings.HasPrefix(in.Message, "Progress check") {
					t.Errorf("a stall was sent on its own: %q", in.Message)
				}
			}
			if got := run.failures(t); got != c.failing {
				t.Errorf("%d tool calls failed, want %d: the session did not run as scripted", got, c.failing)
			}
		})
	}
}

// failures counts the tool calls that failed and logs the line discipline
// compares each failure by; a denied call fails the test.
func (r suiteRun) failures(t *testing.T) int {
	n := 0
	for _, ev := range r.events {
		f, ok := ev.(agent.ToolFinished)
		if !ok {
			continue
		}
		if f.Denied {
			t.Errorf("%s %s was denied: %s", f.Name, f.Args, f.DenyReason)
		}
		if f.IsError || (f.ExitCode != nil && *f.ExitCode != 0) {
			n++
			t.Logf("%s %s failed: %q", f.Name, f.Args, discipline.FailureLine(f.Output))
		}
	}
	return n
}

// triageSessions run failing programs that fail differently.
func triageSessions() []noFire {
	var pyDistinct, pyModule, goSix []llmtest.Round
	for i := 1; i <= 6; i++ {
		pyDistinct = append(pyDistinct, llmtest.ToolRound(tc("run_command", "command", fmt.Sprintf("python3 s%d.py", i))))
		pyModule = append(pyModule, llmtest.ToolRound(tc("run_command", "command", fmt.Sprintf("python3 m%d.py", i))))
		goSix = append(goSix, llmtest.ToolRound(tc("run_command", "command", fmt.Sprintf("go test ./p%d", i))))
	}
	distinct := suite{files: pyScripts, rounds: script("six different bugs", pyDistinct)}
	module := suite{files: pyMissing(), rounds: script("all six need keel_missing_module", pyModule)}
	if !have("python3") {
		distinct.canned = pyCanned(pyScripts, func(n string) string { return pyLastLines[n] })
		module.canned = pyCanned(pyMissing(), func(string) string { return "ModuleNotFoundError: No module named 'keel_missing_module'" })
	}
	greps := one(tc("run_command", "command", "grep -rn TODO ."), tc("run_command", "command", "grep -rn FIXME ."), tc("run_command", "command", "grep -rn XXX ."))
	return []noFire{
		{"triage of six Python scripts failing six ways", distinct, nil, 6, nil},
		{"triage of six Python scripts failing on the same missing module", module, nil, 6, nil},
		{"triage of six failing Go packages", suite{files: goTriage, rounds: script("six packages, six causes", goSix)}, nil, 6, nil},
		{"three searches that found nothing", suite{files: goFiles(3), rounds: script("no markers", greps)}, nil, 3, nil},
	}
}

// readingSessions read files the ways a careful model does.
func readingSessions() []noFire {
	long := map[string]string{"big.go": goSource(2000)}
	a := map[string]string{"a.go": goSource(300), "b.go": goSource(120)}
	focus := one(tc("read_file", "path", "a.go"), tc("read_file", "path", "a.go", "offset", 40, "limit", 20),
		tc("read_file", "path", "a.go", "offset", 100, "limit", 30), tc("read_file", "path", "a.go", "offset", 40, "limit", 10),
		tc("grep", "pattern", "func f4", "path", "a.go"), tc("read_file", "path", "a.go", "offset", 45, "limit", 2))
	paging := one(tc("read_file", "path", "big.go"), tc("read_file", "path", "big.go", "offset", 401),
		tc("read_file", "path", "big.go", "offset", 801), tc("read_file", "path", "big.go", "offset", 1201), tc("read_file", "path", "big.go", "offset", 1601))
	overlap := one(tc("read_file", "path", "big.go", "limit", 400), tc("read_file", "path", "big.go", "offset", 300, "limit", 400),
		tc("read_file", "path", "big.go", "offset", 1, "limit", 100), tc("read_file", "path", "big.go", "offset", 650, "limit", 350))
	catAfter := one(tc("read_file", "path", "b.go"), tc("run_command", "command", "cat b.go"), tc("run_command", "command", "head -n 20 b.go"), tc("run_command", "command", "tail -n 5 b.go"))
	counting := one(tc("read_file", "path", "a.go"), tc("read_file", "path", "b.go"), tc("run_command", "command", "wc -l a.go b.go"),
		tc("run_command", "command", "grep -n func a.go"), tc("grep", "pattern", "func", "path", "b.go"), tc("run_command", "command", "grep -c return b.go"),
		tc("run_command", "command", "wc -l a.go"))
	var audit, parallel []llmtest.Round
	for i := 1; i <= 40; i++ {
		audit = append(audit, llmtest.ToolRound(tc("read_file", "path", fmt.Sprintf("f%02d.go", i))))
	}
	for i := 1; i <= 40; i += 4 {
		var calls []llmtest.Call
		for j := i; j < i+4; j++ {
			calls = append(calls, tc("read_file", "path", fmt.Sprintf("f%02d.go", j)))
		}
		parallel = append(parallel, llmtest.ToolRound(calls...))
	}
	return []noFire{
		{"read a file whole, then focus on sub-ranges", suite{files: a, rounds: script("found it", focus)}, nil, 0, nil},
		{"page forward through a 2,000-line file", suite{files: long, rounds: script("read it all", paging)}, nil, 0, nil},
		{"overlapping pages, back to the start for a closer look", suite{files: long, rounds: script("ok", overlap)}, nil, 0, nil},
		{"cat, head and tail after read_file", suite{files: a, rounds: script("ok", catAfter)}, nil, 0, nil},
		{"wc -l and grep -n on files already read", suite{files: a, rounds: script("300 and 120 lines", counting)}, nil, 0, nil},
		{"a 40-file read-only audit, one file a round (cadence 10)", suite{files: goFiles(40), rounds: script("audit: all fine", audit)}, []int{10, 20, 30, 40}, 0, []int{30}},
		{"a 40-file read-only audit, four files a round", suite{files: goFiles(40), rounds: script("audit: all fine", parallel)}, []int{12, 20, 32, 40}, 0, []int{32}},
	}
}

// allThenEach runs the whole module's tests, then each package's.
func allThenEach() []llmtest.Round {
	rs := one(tc("run_command", "command", "go test ./..."))
	for i := 1; i <= 6; i++ {
		rs = append(rs, llmtest.ToolRound(tc("run_command", "command", fmt.Sprintf("go test ./p%d", i))))
	}
	return rs
}

// calcEdit edits calc.go of goModule.
func calcEdit(from, to string) llmtest.Call {
	return tc("edit_file", "path", "calc.go", "old_string", from, "new_string", to)
}

// calcTest runs goModule's tests.
var calcTest = tc("run_command", "command", "go test ./...")

// editingSessions edit and test.
func editingSessions() []noFire {
	edit, test := calcEdit, calcTest
	fixLoop := script("fixed: Add subtracted", one(tc("read_file", "path", "calc.go"), test,
		edit("// rev 0", "// rev 1"), test, edit("// rev 1", "// rev 2"), test, edit("a - b", "a + b"), test))
	passing := script("four edits, tests green", one(tc("read_file", "path", "calc.go"),
		edit("// rev 0", "// rev 1"), test, edit("// rev 1", "// rev 2"), test, edit("// rev 2", "// rev 3"), test, edit("// rev 3", "// rev 4"), test))
	notes := map[string]string{"notes.md": "# Notes\n\ndraft\n"}
	rereadEdited := script("notes updated", one(tc("read_file", "path", "notes.md"),
		tc("edit_file", "path", "notes.md", "old_string", "draft", "new_string", "draft 1"), tc("read_file", "path", "notes.md"),
		tc("edit_file", "path", "notes.md", "old_string", "draft 1", "new_string", "draft 2"), tc("read_file", "path", "notes.md"),
		tc("edit_file", "path", "notes.md", "old_string", "draft 2", "new_string", "final"), tc("read_file", "path", "notes.md")))
	verified := script("fixed and vetted", one(tc("read_file", "path", "calc.go"), edit("a - b", "a + b"), tc("run_command", "command", "go vet ./... && go test ./...")))
	editTest := func(from, to string) llmtest.Call {
		return tc("edit_file", "path", "calc_test.go", "old_string", from, "new_string", to)
	}
	alternating := script("ok", one(tc("read_file", "path", "calc.go"), tc("read_file", "path", "calc_test.go"), edit("// rev 0", "// rev 1"), editTest("TestAdd", "TestAdd1"),
		tc("read_file", "path", "calc.go"), tc("read_file", "path", "calc_test.go"), edit("// rev 1", "// rev 2"), editTest("TestAdd1", "TestAdd2"),
		tc("read_file", "path", "calc.go"), tc("read_file", "path", "calc_test.go"), test))
	var sedLoop []llmtest.Call
	for i := range 4 { // edits made by a command, each followed by the same passing test
		sedLoop = append(sedLoop, tc("run_command", "command", fmt.Sprintf("sed -i 's|// rev %d|// rev %d|' calc.go", i, i+1)), test)
	}
	appends := []llmtest.Call{tc("run_command", "command", "echo more >> data.txt"), tc("run_command", "command", "echo more >> data.txt"),
		tc("run_command", "command", "echo more >> data.txt"), tc("run_command", "command", "wc -l data.txt")}
	return []noFire{
		{"four sed -i edits, each followed by the same passing go test", suite{files: goModule(true), rounds: script("four revisions, tests green", one(sedLoop...))}, nil, 0, nil},
		{"the same append three times, then a count", suite{files: map[string]string{"data.txt": "start\n"}, rounds: script("4 lines", one(appends...))}, nil, 0, nil},
		{"the same failing test after each edit, until the fix", suite{files: goModule(false), rounds: fixLoop}, nil, 3, nil},
		{"four edits, each followed by the same passing go test", suite{files: goModule(true), rounds: passing}, nil, 0, nil},
		{"read, edit, read the edited file again, three times", suite{files: notes, rounds: rereadEdited}, nil, 0, nil},
		{"an edit verified before answering", suite{files: goModule(false), rounds: verified}, nil, 0, nil},
		{"two files read and edited in turn (checkpoint at 10)", suite{files: goModule(true), rounds: alternating}, []int{10}, 0, nil},
	}
}

// planningSessions follow a plan, explore with commands, answer tasks.
func planningSessions() []noFire {
	plan := func(steps ...string) llmtest.Call {
		var ss []map[string]string
		for _, s := range steps {
			title, status, _ := strings.Cut(s, "=")
			ss = append(ss, map[string]string{"title": title, "status": status})
		}
		return tc("update_plan", "goal", "fix Add", "steps", ss)
	}
	planned := script("Add fixed and tested", one(plan("read=active", "fix=pending", "test=pending"), tc("read_file", "path", "calc.go"),
		plan("read=completed", "fix=active", "test=pending"), calcEdit("a - b", "a + b"),
		plan("read=completed", "fix=completed", "test=active"), calcTest, plan("read=completed", "fix=completed", "test=completed")))
	var commands []llmtest.Round
	for _, c := range []string{"ls", "pwd", "go version", "go env GOOS", "echo hello", "uname -s", "ls -la", "cat go.mod", "go list ./...", "wc -l calc.go", "printf ok", "go vet ./..."} {
		commands = append(commands, llmtest.ToolRound(tc("run_command", "command", c)))
	}
	same := []llmtest.Round{llmtest.TextRound("Done."), llmtest.TextRound("Done."), llmtest.TextRound("Done.")}
	noCadence := func(c *config.Config) { c.ReflectionCadence = 0 }
	return []noFire{
		{"a plan followed to completion", suite{files: goModule(false), rounds: planned}, nil, 0, nil},
		{"a dozen different commands (a checkpoint at 10)", suite{files: goModule(true), rounds: script("explored", commands)}, []int{10}, 0, nil},
		{"three tasks answered the same way", suite{rounds: same, prompts: []string{"first", "second", "third"}}, nil, 0, nil},
		{"go test ./... then each failing package alone, cadence off", suite{files: goTriage, cfg: noCadence, rounds: script("six packages fail", allThenEach())}, nil, 7, nil},
	}
}
