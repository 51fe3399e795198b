package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/tools"
)

// isChild tells a subagent's request by its system prompt.
func isChild(r llmtest.RecordedRequest) bool {
	return len(r.Messages) > 0 && strings.Contains(r.Messages[0].Content, SubagentDefaultPrompt)
}

func TestSubagentsRunAtMostMaxParallelAtOnce(t *testing.T) {
	var mu sync.Mutex
	inflight, most := 0, 0
	// The first two children wait for each other, so they overlap however
	// slow the machine; then each holds its slot a moment, in which a
	// third child past the cap would be seen.
	both, bothOnce := make(chan struct{}), sync.Once{}
	srv := llmtest.Script{Handler: func(r llmtest.RecordedRequest, n int) llmtest.Round {
		if !isChild(r) {
			if n == 0 {
				var calls []llmtest.Call
				for i := range 3 {
					calls = append(calls, call(fmt.Sprintf("t%d", i), TaskToolName, fmt.Sprintf(`{"description":"d","prompt":"job %d"}`, i)))
				}
				return llmtest.ToolRound(calls...)
			}
			return llmtest.TextRound("all done")
		}
		mu.Lock()
		inflight++
		most = max(most, inflight)
		if inflight >= 2 {
			bothOnce.Do(func() { close(both) })
		}
		mu.Unlock()
		select {
		case <-both:
		case <-time.After(time.Minute): // a hang guard: the cap let only one run
		}
		time.Sleep(150 * time.Millisecond) // hold the slot: a third child would overlap here
		mu.Lock()
		inflight--
		mu.Unlock()
		return llmtest.TextRound("child done")
	}}
	s, _ := newSession(t, srv, func(o *Options) {
		o.Tools = []tools.Tool{echoTool()}
		o.Subagents = &Subagents{MaxParallel: 2, Tools: []string{"echo"}, Limits: Limits{MaxTurns: 5}}
	})
	evs, st := runTask(t, context.Background(), s, "go")
	if st.Reason != StopCompleted || st.Result != "all done" {
		t.Fatalf("stopped %s: %s", st.Reason, describe(evs))
	}
	if most != 2 {
		t.Errorf("%d children ran at once, want the cap, 2", most)
	}
	if n := len(eventsOf[SubagentFinished](evs)); n != 3 {
		t.Errorf("%d SubagentFinished events, want 3", n)
	}
	// 2 parent rounds and 3 children's, at the fake's 100 in / 10 out
	if st.Summary.Usage.PromptTokens != 500 {
		t.Errorf("task usage = %+v, want the children's rounds in it", st.Summary.Usage)
	}
}

func TestTaskCallsRefuseWhatTheyCannotHave(t *testing.T) {
	cases := []struct{ args, want string }{
		{`{"description":"d","prompt":"p","agent":"nobody"}`, `there is no agent named "nobody"; the agents are: general`},
		{`{"description":"d","prompt":"p","tools":["task"]}`, `the subagent cannot have the tool "task"; it may have any of: echo`},
		{`{"description":"d","prompt":"p","tools":["update_plan"]}`, `cannot have the tool "update_plan"`},
		{`{"description":"d","prompt":""}`, "needs a prompt"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			srv := llmtest.Rounds(llmtest.ToolRound(call("t1", TaskToolName, c.args)), llmtest.TextRound("ok"))
			s, fake := newSession(t, srv, func(o *Options) {
				o.Tools = []tools.Tool{echoTool()}
				o.Subagents = &Subagents{MaxParallel: 1, Tools: []string{"echo"}}
			})
			runTask(t, context.Background(), s, "go")
			msgs := fake.Requests()[1].Messages
			if got := msgs[len(msgs)-1].Content; !strings.Contains(got, c.want) {
				t.Errorf("the model got %q", got)
			}
		})
	}
}

func TestASubagentHasNoTaskTool(t *testing.T) {
	srv := llmtest.Script{Handler: func(r llmtest.RecordedRequest, n int) llmtest.Round {
		if isChild(r) {
			for _, name := range r.Tools {
				if name == TaskToolName {
					return llmtest.TextRound("I have a task tool")
				}
			}
			return llmtest.TextRound("no task tool")
		}
		if n == 0 {
			return llmtest.ToolRound(call("t1", TaskToolName, `{"description":"d","prompt":"p"}`))
		}
		return llmtest.TextRound("ok")
	}}
	s, fake := newSession(t, srv, func(o *Options) {
		o.Tools = []tools.Tool{echoTool()}
		o.Subagents = &Subagents{MaxParallel: 1, Tools: []string{"echo"}}
	})
	runTask(t, context.Background(), s, "go")
	msgs := fake.Requests()[2].Messages
	if got := msgs[len(msgs)-1].Content; !strings.Contains(got, "no task tool") {
		t.Errorf("the child answered %q", got)
	}
}

// TestAChildsTokensShowWhenTheParentIsCancelled: the figures the UI shows
// (UsageUpdated) take in a child's rounds when its task call ends, not
// only with the parent's next round, which a cancel never sends.
func TestAChildsTokensShowWhenTheParentIsCancelled(t *testing.T) {
	started := make(chan struct{})
	srv := llmtest.Script{Handler: func(r llmtest.RecordedRequest, n int) llmtest.Round {
		if isChild(r) {
			return llmtest.ToolRound(call("w1", "wait", `{}`))
		}
		return llmtest.ToolRound(call("t1", TaskToolName, `{"description":"d","prompt":"wait","tools":["wait"]}`))
	}}
	s, _ := newSession(t, srv, func(o *Options) {
		o.Tools = []tools.Tool{blockingTool(started)}
		o.Subagents = &Subagents{MaxParallel: 1, Tools: []string{"wait"}, Limits: Limits{MaxTurns: 5}}
	})
	ctx, cancel := context.WithCancel(context.Background())
	if err := s.Submit(ctx, "go"); err != nil {
		t.Fatal(err)
	}
	await(t, started, "the child's tool to start")
	cancel()
	evs, st := collect(t, s)
	if st.Reason != StopCancelled {
		t.Fatalf("stopped %s: %s", st.Reason, describe(evs))
	}
	ups := eventsOf[UsageUpdated](evs)
	// the parent's round and the child's, at the fake's 100 in / 10 out
	if len(ups) == 0 || ups[len(ups)-1].Session.PromptTokens != 200 || ups[len(ups)-1].Task.PromptTokens != 200 {
		t.Fatalf("the last usage shown = %+v, want the child's round in it (200 in)", ups)
	}
}
