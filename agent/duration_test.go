package agent

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/tools"
)

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// askEverything is a policy that asks about every call.
type askEverything struct{}

func (askEverything) Decide(string, json.RawMessage) tools.Decision {
	return tools.Decision{Verdict: tools.Ask, Reason: "asks"}
}
func (askEverything) Grant(tools.Grant) {}

// slowAnswer allows every call after the user thought for a while.
type slowAnswer struct{ clock *fakeClock }

func (g slowAnswer) Ask(context.Context, PermissionRequest) (PermissionReply, error) {
	g.clock.advance(10 * time.Second)
	return PermissionReply{Allow: true}, nil
}

// TestCallDurationLeavesOutThePermissionWait: a call allowed after a
// 10-second dialog took as long as its run, not 10 s.
func TestCallDurationLeavesOutThePermissionWait(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	script := llmtest.Rounds(llmtest.ToolRound(llmtest.Call{ID: "c1", Name: "echo", Args: `{"x":1}`}), llmtest.TextRound("done"))
	s, _ := newSession(t, script, func(o *Options) {
		o.Now, o.Permissions, o.Gate = clock.now, askEverything{}, slowAnswer{clock: clock}
	})
	evs, st := runTask(t, context.Background(), s, "go")
	if st.Reason != StopCompleted {
		t.Fatalf("stopped with %v", st.Reason)
	}
	finished := 0
	for _, ev := range evs {
		if f, ok := ev.(ToolFinished); ok {
			finished++
			if f.Duration >= 10*time.Second || f.Denied {
				t.Errorf("the call took %v (denied %v): the permission dialog's wait was counted", f.Duration, f.Denied)
			}
		}
	}
	if finished != 1 {
		t.Fatalf("%d calls finished, want 1", finished)
	}
}
