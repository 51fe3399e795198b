package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/hooks"
	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/tools"
)

// askAll is a policy that asks about every call.
type askAll struct{}

func (askAll) Decide(string, json.RawMessage) tools.Decision {
	return tools.Decision{Verdict: tools.Ask}
}
func (askAll) Grant(tools.Grant) {}

// allowGate answers yes.
type allowGate struct{}

func (allowGate) Ask(context.Context, PermissionRequest) (PermissionReply, error) {
	return PermissionReply{Allow: true}, nil
}

func hookRunner(t *testing.T, hs ...hooks.Hook) *hooks.Runner {
	t.Helper()
	r, err := hooks.New(hs, t.TempDir(), []string{"PATH=/usr/bin:/bin"})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestNotificationHookRunsWhenKeelAsksTheUser(t *testing.T) {
	r := hookRunner(t, hooks.Hook{Event: hooks.Notification, Command: "cat > /dev/null"})
	cases := []struct {
		name string
		gate Gate
		want int
	}{{"an interactive question", allowGate{}, 1}, {"headless refuses without asking anyone", DenyGate{}, 0}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, _ := newSession(t, llmtest.Rounds(llmtest.ToolRound(call("c1", "echo", `{}`)), llmtest.TextRound("ok")), func(o *Options) {
				o.Tools, o.Permissions, o.Gate, o.Hooks = []tools.Tool{echoTool()}, askAll{}, c.gate, r
			})
			evs, _ := runTask(t, context.Background(), s, "go")
			s.bg.Wait() // the hook runs beside the question: its event may come after the task's end
			for len(s.Events()) > 0 {
				evs = append(evs, <-s.Events())
			}
			var n int
			for _, e := range eventsOf[HookRan](evs) {
				if e.Event == hooks.Notification {
					n++
				}
			}
			if n != c.want {
				t.Errorf("%d Notification runs, want %d: %s", n, c.want, describe(evs))
			}
		})
	}
}

func TestAHookAskMakesKeelAskEvenWhenARuleAllows(t *testing.T) {
	r := hookRunner(t, hooks.Hook{Event: hooks.PreToolUse, Command: `echo '{"hookSpecificOutput":{"permissionDecision":"ask"}}'`})
	s, _ := newSession(t, llmtest.Rounds(llmtest.ToolRound(call("c1", "write", `{}`)), llmtest.TextRound("ok")), func(o *Options) {
		o.Tools, o.Hooks = []tools.Tool{&fakeTool{name: "write", class: tools.Write}}, r
		o.Permissions = allowAll{}
	})
	_, st := runTask(t, context.Background(), s, "go")
	if len(st.Summary.Denials) != 1 {
		t.Errorf("denials = %+v: the hook's ask did not reach the (headless) gate", st.Summary.Denials)
	}
}

// allowAll allows every call.
type allowAll struct{}

func (allowAll) Decide(string, json.RawMessage) tools.Decision {
	return tools.Decision{Verdict: tools.Allow}
}
func (allowAll) Grant(tools.Grant) {}

// TestAStopHookThatNeverRelentsEndsTheTask: a Stop hook that blocks
// whatever stop_hook_active says sends the model back at most
// maxIdleStopBlocks times in a row without a tool call between; one whose
// model works between its blocks is not cut short.
func TestAStopHookThatNeverRelentsEndsTheTask(t *testing.T) {
	cases := []struct {
		name     string
		round    func(n int) llmtest.Round
		requests int
	}{
		{"the model only answers", func(n int) llmtest.Round { return llmtest.TextRound(fmt.Sprintf("done %d", n)) }, maxIdleStopBlocks + 1},
		{"the model works between the blocks", func(n int) llmtest.Round {
			if n%2 == 0 && n < 10 {
				return llmtest.ToolRound(call("", "echo", fmt.Sprintf(`{"n":%d}`, n)))
			}
			return llmtest.TextRound(fmt.Sprintf("done %d", n)) // (the same answer again is a loop guard's)
		}, 13}, // 5 blocks each after a tool call, then 3 in a row without
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := hookRunner(t, hooks.Hook{Event: hooks.Stop, Command: "echo 'not yet' >&2; exit 2"})
			script := llmtest.Script{Handler: func(_ llmtest.RecordedRequest, n int) llmtest.Round { return c.round(n) }}
			s, srv := newSession(t, script, func(o *Options) { o.Hooks = r })
			evs, st := runTask(t, context.Background(), s, "go")
			if st.Reason != StopCompleted || len(srv.Requests()) != c.requests {
				t.Fatalf("stopped %s after %d requests, want completed after %d: %s", st.Reason, len(srv.Requests()), c.requests, describe(evs))
			}
			var said bool
			for _, n := range eventsOf[Notice](evs) {
				said = said || strings.Contains(n.Text, "no tool call in between: keel let the task end")
			}
			if !said {
				t.Errorf("no notice says why the task ended: %s", describe(evs))
			}
		})
	}
}
