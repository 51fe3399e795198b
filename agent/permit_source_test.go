package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/tools"
)

// scriptedGate answers the questions in order.
type scriptedGate struct{ replies []PermissionReply }

func (g *scriptedGate) Ask(context.Context, PermissionRequest) (PermissionReply, error) {
	r := g.replies[0]
	g.replies = g.replies[1:]
	return r, nil
}

// Each call's record names what really allowed it, through the real
// policy (issue 32 leftovers: a call covered by the session grant the
// user gave in the dialog was recorded "rule", shown "allow by rule").
func TestDecisionRecordsItsRealSource(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	pol, err := tools.NewPolicy(ws, tools.PolicyOptions{Allow: []string{"run_command:touch *"}})
	if err != nil {
		t.Fatal(err)
	}
	calls := []struct {
		call llmtest.Call
		want string
	}{
		{llmtest.Call{ID: "r", Name: "read_file", Args: `{"path":"a.txt"}`}, datalog.DecidedByPolicy},
		{llmtest.Call{ID: "c1", Name: "run_command", Args: `{"command":"touch e.txt"}`}, datalog.DecidedByRuleNamed + "run_command:touch *"},
		{llmtest.Call{ID: "w1", Name: "write_file", Args: `{"path":"b.txt","content":"b\n"}`}, datalog.DecidedByUserOnce},
		{llmtest.Call{ID: "w2", Name: "write_file", Args: `{"path":"c.txt","content":"c\n"}`},
			datalog.DecidedByUserSession + "write_file: all edits this session"},
		{llmtest.Call{ID: "w3", Name: "write_file", Args: `{"path":"d.txt","content":"d\n"}`},
			datalog.DecidedBySession + "write_file: all edits this session"},
		{llmtest.Call{ID: "c2", Name: "run_command", Args: `{"command":"ls"}`}, datalog.DecidedByPolicy},
		{llmtest.Call{ID: "c3", Name: "run_command", Args: `{"command":"mkdir out"}`}, datalog.DecidedByUserSession + "run_command: mkdir …"},
		{llmtest.Call{ID: "c4", Name: "run_command", Args: `{"command":"mkdir out2 && touch f.txt"}`}, datalog.DecidedBySession + "run_command: mkdir …"},
	}
	var rounds []llmtest.Round
	for _, c := range calls {
		rounds = append(rounds, llmtest.ToolRound(c.call))
	}
	gate := &scriptedGate{replies: []PermissionReply{{Allow: true}, {Allow: true, ForSession: true}, {Allow: true, ForSession: true}}}
	s, _ := newSession(t, llmtest.Rounds(append(rounds, llmtest.TextRound("done"))...), func(o *Options) {
		o.Tools, o.Permissions, o.Gate = tools.New(ws, tools.Options{}), pol, gate
	})
	evs, st := runTask(t, context.Background(), s, "go")
	if st.Reason != StopCompleted {
		t.Fatalf("stopped with %v", st.Reason)
	}
	got := map[string]string{}
	for _, f := range eventsOf[ToolFinished](evs) {
		got[f.CallID] = f.DecidedBy
	}
	for _, c := range calls {
		if got[c.call.ID] != c.want {
			t.Errorf("%s %s: decided by %q, want %q", c.call.Name, c.call.Args, got[c.call.ID], c.want)
		}
	}
}
