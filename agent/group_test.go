package agent

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/tools"
)

// lateGroup is a tools.Group whose members arrive while the session runs
// (an MCP server that finishes starting after the first request).
type lateGroup struct {
	fakeTool
	mu      sync.Mutex
	members []tools.Tool
}

var _ tools.Group = (*lateGroup)(nil)

func (g *lateGroup) Members() []tools.Tool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.members)
}

func (g *lateGroup) Member(name string) (tools.Tool, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return tools.Find(g.members, name)
}

func (g *lateGroup) add(t tools.Tool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.members = append(g.members, t)
}

// TestGroupMembersJoinFromTheNextRequest: a group's tools are offered
// from the first request after they arrive, and run like any tool.
func TestGroupMembersJoinFromTheNextRequest(t *testing.T) {
	g := &lateGroup{fakeTool: fakeTool{name: "mcp__"}}
	late := &fakeTool{name: "mcp__srv__echo", class: tools.ReadOnly}
	s, srv := newSession(t, llmtest.Rounds(
		llmtest.ToolRound(call("c1", "echo", `{"path":"a"}`)),
		llmtest.ToolRound(call("c2", "mcp__srv__echo", `{"path":"b"}`)),
		llmtest.TextRound("done"),
	), func(o *Options) {
		o.Tools = append(o.Tools, g)
		echo := o.Tools[0].(*fakeTool)
		echo.run = func(context.Context, json.RawMessage) (tools.Result, error) {
			g.add(late) // the server started while the first round ran
			return tools.Result{Output: "ok"}, nil
		}
	})
	_, st := runTask(t, context.Background(), s, "use the late tool")
	if st.Reason != StopCompleted || late.calls.Load() != 1 {
		t.Fatalf("stop = %s, late tool ran %d times (%s)", st.Reason, late.calls.Load(), st.Message)
	}
	reqs := srv.Requests()
	first, second := strings.Join(reqs[0].Tools, " "), strings.Join(reqs[1].Tools, " ")
	if strings.Contains(first, "mcp__") || !strings.Contains(second, "mcp__srv__echo") {
		t.Errorf("tools offered: first %q, second %q; want the member from the second request only", first, second)
	}
}
