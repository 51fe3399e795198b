package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/tools"
)

// journaledSession is a recorded session whose tools write in a
// workspace of their own, journaled.
func journaledSession(t *testing.T, rounds []llmtest.Round, mutate func(*Options)) (*Session, string, func() []string) {
	t.Helper()
	dir := t.TempDir()
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, db, id := recordedSession(t, llmtest.Rounds(rounds...), func(o *Options) {
		o.Tools, o.Workdir, o.Project, o.Yolo, o.Workspace = tools.New(ws, tools.Options{}), ws.Root(), ws.Root(), true, ws
		if mutate != nil {
			mutate(o)
		}
	})
	changes := func() []string {
		fcs, err := db.TaskFileChanges(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range fcs {
			state := "done"
			if c.Pending {
				state = "pending"
			}
			out = append(out, filepath.Base(c.Path)+" "+state+" "+string(c.After))
		}
		return out
	}
	return s, ws.Root(), changes
}

var writeN = llmtest.ToolRound(llmtest.Call{Name: "write_file", Args: `{"path":"n.txt","content":"new\n"}`})

// A write is journaled before it is made and its round completes the row.
func TestWritesAreJournaledThenCompleted(t *testing.T) {
	s, dir, changes := journaledSession(t, []llmtest.Round{writeN, llmtest.TextRound("done")}, nil)
	_, st := runTask(t, context.Background(), s, "write n")
	if st.Reason != StopCompleted {
		t.Fatalf("stop = %s (%s)", st.Reason, st.Message)
	}
	if _, err := os.Stat(filepath.Join(dir, "n.txt")); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(changes(), ";"); got != "n.txt done new\n" {
		t.Errorf("recorded changes = %q, want n.txt completed with its content", got)
	}
}

type answer bool

func (a answer) AskUnrecorded(context.Context, UnrecordedChange) (bool, error) { return bool(a), nil }

// When the datalog cannot record a change (here it is closed: every
// write fails at once and nothing is kept to retry): headless (no asker)
// makes nothing and stops the task with datalog_unavailable; the TUI's
// asker may let it through or not.
func TestUnrecordableChangeStopsOrAsks(t *testing.T) {
	cases := []struct {
		name    string
		asker   RecordAsker
		want    StopReason
		written bool
	}{
		{"headless", nil, StopDatalog, false},
		{"user allows", answer(true), StopCompleted, true},
		{"user refuses", answer(false), StopCompleted, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var rec *Recorder
			s, dir, _ := journaledSession(t, []llmtest.Round{writeN, llmtest.TextRound("done")}, func(o *Options) {
				o.RecordAsker, rec = c.asker, o.Recorder
			})
			_ = rec.db.Close() // the datalog can no longer record
			_, st := runTask(t, context.Background(), s, "write n")
			_, err := os.Stat(filepath.Join(dir, "n.txt"))
			if st.Reason != c.want || (err == nil) != c.written {
				t.Errorf("stop %s (%s), n.txt written %v; want %s, written %v", st.Reason, st.Message, err == nil, c.want, c.written)
			}
		})
	}
}

// A subagent's write goes through the parent's workspace (its tools are
// the parent's) but is journaled and completed in the child's own
// session: nothing stays pending in the parent's, which undo would take
// for a write keel was killed during.
func TestSubagentWritesAreJournaledInTheChildsSession(t *testing.T) {
	dir := t.TempDir()
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	script := llmtest.Script{Handler: func(r llmtest.RecordedRequest, n int) llmtest.Round {
		switch {
		case isChild(r) && !strings.Contains(string(r.Body), "n.txt"):
			return writeN
		case isChild(r):
			return llmtest.TextRound("child wrote it")
		case n == 0:
			return llmtest.ToolRound(call("t1", TaskToolName, `{"description":"d","prompt":"write n"}`))
		}
		return llmtest.TextRound("all done")
	}}
	s, db, id := recordedSession(t, script, func(o *Options) {
		o.Tools, o.Workdir, o.Project, o.Yolo, o.Workspace = tools.New(ws, tools.Options{}), ws.Root(), ws.Root(), true, ws
		o.Subagents = &Subagents{MaxParallel: 1, Tools: []string{"write_file"}, Limits: Limits{MaxTurns: 5}}
	})
	evs, st := runTask(t, context.Background(), s, "go")
	if st.Reason != StopCompleted {
		t.Fatalf("stopped %s: %s", st.Reason, describe(evs))
	}
	if _, err := os.Stat(filepath.Join(dir, "n.txt")); err != nil {
		t.Fatalf("the child did not write: %v", err)
	}
	parent, err := db.TaskFileChanges(context.Background(), id)
	if err != nil || len(parent) != 0 {
		t.Errorf("the parent's session holds %d changes (%v), want none: the child's write is the child's", len(parent), err)
	}
	var child string
	for _, e := range eventsOf[SubagentFinished](evs) {
		child = e.SessionID
	}
	got, err := db.TaskFileChanges(context.Background(), child)
	if err != nil || len(got) != 1 || got[0].Pending {
		t.Errorf("the child's session holds %+v (%v), want one completed change", got, err)
	}
}
