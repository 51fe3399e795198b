package main

import (
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llmtest"
)

// TestContinueAfterUndoTellsTheModel: the fake model edits main.go, keel
// undo reverts it, and keel -c -p's request carries a note saying so
// (issue 18 item 8); a second -c sends that note once, as history.
func TestContinueAfterUndoTellsTheModel(t *testing.T) {
	home, dir, _, _ := scriptedRun(t)
	if out, errOut, code := runKeelHome(t, home, nil, dir, "", "undo"); code != 0 || !strings.Contains(out, "restored main.go") {
		t.Fatalf("undo: exit %d, %q %q", code, out, errOut)
	}
	want := "keel undo reverted your changes to main.go in task 1; the files are as they were before it."
	for i, prompt := range []string{"and now?", "still there?"} {
		srv := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("ok")))
		if _, errOut, code := runKeelHome(t, home, srv, dir, "", "-c", "-p", prompt); code != 0 {
			t.Fatalf("resume %d: exit %d: %s", i+1, code, errOut)
		}
		msgs := srv.Requests()[0].Messages
		var notes int
		for _, m := range msgs {
			if strings.Contains(m.Content, want) {
				notes++
			}
		}
		if notes != 1 {
			t.Errorf("resume %d: %d messages carry the note, want 1; last two: %+v", i+1, notes, msgs[len(msgs)-2:])
		}
		if n := msgs[len(msgs)-2]; i == 0 && (n.Role != "user" || !strings.Contains(n.Content, want)) {
			t.Errorf("the note is not the message before the prompt: %+v", n)
		}
	}
}

func TestUndoneTextGroupsByTask(t *testing.T) {
	got := undoneText([]datalog.UndoneChange{
		{TaskSeq: 2, Path: "/p/a.go"}, {TaskSeq: 2, Path: "/p/gen.go", ByCommand: true},
		{TaskSeq: 3, Path: "/p/sub/b.go"}, {TaskSeq: 3, Path: "/elsewhere/c.go"},
	}, "/p")
	for _, want := range []string{
		"your changes to a.go in task 2;",
		"Files commands changed in task 2 were left as they are: gen.go.",
		"your changes to sub/b.go, /elsewhere/c.go in task 3;",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("note lacks %q:\n%s", want, got)
		}
	}
}
