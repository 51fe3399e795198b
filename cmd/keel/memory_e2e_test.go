package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
)

func noteRound(args string) llmtest.Round {
	return llmtest.ToolRound(llmtest.Call{Name: "note", Args: args})
}

// TestWorkingMemoryThroughTheBinary: notes are bounded by
// memory.notes_max, the least recently used is evicted with a notice and
// a datalog row, and a resumed session gets its notes back.
func TestWorkingMemoryThroughTheBinary(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Rounds(
		noteRound(`{"action":"pin","text":"the entry point is main.go"}`),
		noteRound(`{"action":"pin","text":"README is one line"}`),
		noteRound(`{"action":"update","id":"n1","text":"main.go has an empty main"}`),
		noteRound(`{"action":"pin","text":"no tests yet"}`), // evicts n2, the least recently used
		llmtest.TextRound("noted"),
		noteRound(`{"action":"pin","text":"resumed"}`),
		llmtest.TextRound("still here"),
	))
	home, dir := t.TempDir(), project(t)
	withConfig(t, home, "[memory]\nnotes_max = 2\n")
	_, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "take notes")
	if code != 0 || !strings.Contains(errOut, "working memory full (2 notes): dropped the least recently used, n2: README is one line") {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	said := resultsOf(srv, "note")
	if !strings.Contains(said, "pin n3; working memory: 2 of 2 notes; it was full, so the least recently used note n2") {
		t.Errorf("note results:\n%s", said)
	}
	// keel -c: the notes come back (n1 as updated, n3), so a new pin
	// evicts n1 and is numbered after them.
	_, errOut, code = runKeelHome(t, home, srv, dir, "", "-c", "-p", "pin one more")
	if code != 0 || !strings.Contains(errOut, "dropped the least recently used, n1: main.go has an empty main") {
		t.Fatalf("resume exit %d: %s", code, errOut)
	}
	if said := resultsOf(srv, "note"); !strings.Contains(said, "pin n4;") {
		t.Errorf("note results after resume:\n%s", said)
	}
}

// TestLessonsThroughTheBinary: a finished task leaves a lesson; the next
// task in the same project is offered the most relevant one in a visible
// note; memory.lessons = false offers none.
func TestLessonsThroughTheBinary(t *testing.T) {
	first := []llmtest.Round{
		planRound(`{"goal":"fix the greeting","strategy":"edit","steps":[{"title":"edit greeting","status":"failed","note":"greet.go is generated"}]}`),
		planRound(`{"goal":"fix the greeting","strategy":"change the generator","steps":[{"title":"edit the template","status":"completed"}]}`),
		llmtest.TextRound("fixed the template instead"),
	}
	for _, on := range []bool{true, false} {
		srv := llmtest.Start(t, llmtest.Rounds(append(first, llmtest.TextRound("ok"))...))
		home, dir := t.TempDir(), project(t)
		if !on {
			withConfig(t, home, "[memory]\nlessons = false\n")
		}
		if _, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "fix the greeting"); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		_, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "the greeting is wrong again")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		reqs := srv.Requests()
		msgs := reqs[len(reqs)-1].Messages
		note := msgs[len(msgs)-1].Content
		offered := strings.HasPrefix(note, "[keel] Lessons from earlier tasks in this project")
		if offered != on {
			t.Fatalf("lessons on=%v, offered=%v: %q", on, offered, note)
		}
		if on {
			for _, want := range []string{"task: fix the greeting", "edit greeting: greet.go is generated", "edit the template"} {
				if !strings.Contains(note, want) {
					t.Errorf("the lesson lacks %q: %q", want, note)
				}
			}
			if !strings.Contains(errOut, "1 lesson(s) from earlier tasks offered") {
				t.Errorf("the offer is not visible: %s", errOut)
			}
		}
	}
}

// TestLimitsAndConfirmationThroughTheBinary: --max-duration stops with a
// partial result; --confirm-plan headless refuses a plan with side
// effects no rule allows, with its own subtype.
func TestLimitsAndConfirmationThroughTheBinary(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	t.Run("max_duration", func(t *testing.T) {
		srv := llmtest.Start(t, llmtest.Rounds(
			llmtest.Round{Text: "Looked at the files; main.go next.", ToolCalls: []llmtest.Call{{Name: "glob", Args: `{"pattern":"*"}`}}},
			llmtest.Round{Hang: true},
		))
		out, errOut, code := runKeel(t, srv, project(t), "", "-p", "slow", "--output-format", "json", "--max-duration", "2s")
		r := parseResult(t, out)
		if code != 3 || r.StopReason != "max_duration" || r.Result != "Looked at the files; main.go next." {
			t.Fatalf("exit %d, %+v; stderr %s", code, r, errOut)
		}
	})
	plan := planRound(`{"goal":"add a file","steps":[{"title":"write notes.txt","status":"active","side_effects":true}]}`)
	write := llmtest.ToolRound(llmtest.Call{Name: "write_file", Args: `{"path":"notes.txt","content":"x"}`})
	for _, c := range []struct {
		name          string
		args          []string
		code          int
		subtype, stop string
	}{
		{"no rule: refused", nil, 3, "error_plan_unconfirmed", "plan_unconfirmed"},
		{"a rule allows it", []string{"--allow", "write_file"}, 0, "success", "completed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			done := planRound(`{"goal":"add a file","steps":[{"title":"write notes.txt","status":"completed","side_effects":true}]}`)
			srv := llmtest.Start(t, llmtest.Rounds(plan, write, done, llmtest.TextRound("written")))
			dir := project(t)
			args := append([]string{"-p", "add notes", "--output-format", "json", "--confirm-plan"}, c.args...)
			out, errOut, code := runKeel(t, srv, dir, "", args...)
			r := parseResult(t, out)
			if code != c.code || r.Subtype != c.subtype || r.StopReason != c.stop {
				t.Fatalf("exit %d, %s/%s; stderr %s", code, r.Subtype, r.StopReason, errOut)
			}
			if _, err := readIfExists(dir, "notes.txt"); (err == nil) != (c.code == 0) {
				t.Errorf("notes.txt written: %v", err == nil)
			}
		})
	}
}

// TestDecompositionThroughTheBinary: a step with no progress for
// discipline.decompose_calls calls gets keel's request for sub-steps, and
// the model's sub-steps are drawn under it.
func TestDecompositionThroughTheBinary(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Rounds(
		planRound(`{"goal":"g","strategy":"s","steps":[{"id":"find","title":"find the config","status":"active"}]}`),
		globRound("*.toml"), globRound("*.yaml"),
		planRound(`{"goal":"g","strategy":"s","steps":[{"id":"find","title":"find the config","status":"active"},{"id":"f1","title":"list dirs","status":"active","parent":"find"},{"id":"f2","title":"grep for config","status":"pending","parent":"find"}]}`),
		llmtest.TextRound("split it"),
	))
	home, dir := t.TempDir(), project(t)
	withConfig(t, home, "[discipline]\ndecompose_calls = 3\nplan_continue = false\n")
	out, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "find the config", "--output-format", "json")
	r := parseResult(t, out)
	if code != 0 || len(r.Interventions) != 1 || r.Interventions[0].Kind != "decompose" {
		t.Fatalf("exit %d, interventions %+v; stderr %s", code, r.Interventions, errOut)
	}
	if r.Plan == nil || len(r.Plan.Steps) != 3 || r.Plan.Steps[1].Parent != "find" {
		t.Errorf("plan %+v", r.Plan)
	}
	show, _, _ := runKeelHome(t, home, nil, dir, "", "log", "show", r.SessionID)
	if !strings.Contains(show, "decomposing → planning") || !strings.Contains(show, `+ f1 "list dirs" [active] (under find)`) {
		t.Errorf("keel log show:\n%s", show)
	}
}

func readIfExists(dir, name string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, name)) }
