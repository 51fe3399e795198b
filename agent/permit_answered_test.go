package agent

import (
	"testing"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/tools"
)

// The dialog's three answers are recorded apart; "always" on a question
// that offers no rule holds for the session, and is recorded so.
func TestAnsweredBy(t *testing.T) {
	scoped := tools.Grant{Description: "fetch: every call reaching go.dev", Always: "fetch:go.dev"}
	plain := tools.Grant{Description: "edit_file: all edits this session"}
	cases := []struct {
		reply PermissionReply
		g     tools.Grant
		want  string
	}{
		{PermissionReply{Allow: true}, scoped, datalog.DecidedByUserOnce},
		{PermissionReply{Allow: true, ForSession: true}, scoped, datalog.DecidedByUserSession + scoped.Description},
		{PermissionReply{Allow: true, ForSession: true, Always: true}, scoped, datalog.DecidedByUserAlways + "fetch:go.dev"},
		{PermissionReply{Allow: true, ForSession: true, Always: true}, plain, datalog.DecidedByUserSession + plain.Description},
	}
	for _, c := range cases {
		if got := answeredBy(c.reply, c.g); got != c.want {
			t.Errorf("answeredBy(%+v) = %q, want %q", c.reply, got, c.want)
		}
	}
}
