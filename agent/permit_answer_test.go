package agent

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/tools"
)

// askWithGrant asks about every call, offering a session grant.
type askWithGrant struct{}

func (askWithGrant) Decide(string, json.RawMessage) tools.Decision {
	return tools.Decision{Verdict: tools.Ask, Reason: "asks", Grant: tools.Grant{Description: "echo: every call"}}
}
func (askWithGrant) Grant(tools.Grant) {}

// answers allows the first call once and the second for the session.
type answers struct{ n *int }

func (a answers) Ask(context.Context, PermissionRequest) (PermissionReply, error) {
	*a.n++
	return PermissionReply{Allow: true, ForSession: *a.n == 2}, nil
}

// The user's answer is recorded as given: once, or for the session with
// the grant's pattern (issue 32: both were "user").
func TestPermissionAnswerIsRecordedAsGiven(t *testing.T) {
	n := 0
	script := llmtest.Rounds(llmtest.ToolRound(llmtest.Call{ID: "c1", Name: "echo", Args: `{"path":"a"}`}),
		llmtest.ToolRound(llmtest.Call{ID: "c2", Name: "echo", Args: `{"path":"b"}`}), llmtest.TextRound("done"))
	s, _ := newSession(t, script, func(o *Options) { o.Permissions, o.Gate = askWithGrant{}, answers{n: &n} })
	evs, st := runTask(t, context.Background(), s, "go")
	if st.Reason != StopCompleted {
		t.Fatalf("stopped with %v", st.Reason)
	}
	var got []string
	for _, f := range eventsOf[ToolFinished](evs) {
		got = append(got, f.DecidedBy)
	}
	want := []string{datalog.DecidedByUserOnce, datalog.DecidedByUserSession + "echo: every call"}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("decided by %q, want %q", got, want)
	}
}
