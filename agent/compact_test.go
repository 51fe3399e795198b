package agent

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/agent/llmtest"
)

func TestContextLengthErrorCompactsAndRetries(t *testing.T) {
	s, srv := newSession(t, llmtest.Rounds(
		llmtest.ToolRound(call("c1", "echo", `{"path":"a"}`)),
		llmtest.ToolRound(call("c2", "echo", `{"path":"b"}`)),
		llmtest.ContextLengthRound(),
		llmtest.TextRound("summary of the work"),
		llmtest.TextRound("finished"),
	), func(o *Options) { o.Limits.KeepRounds = 1 })
	evs, st := runTask(t, context.Background(), s, "the task")
	if st.Reason != StopCompleted || st.Result != "finished" {
		t.Fatalf("stop %s %q: %s", st.Reason, st.Result, st.Message)
	}
	reqs := srv.Requests()
	if len(reqs) != 5 {
		t.Fatalf("requests = %d, want 5", len(reqs))
	}
	sum := reqs[3]
	if len(sum.Tools) != 0 || !strings.Contains(sum.Messages[0].Content, "Summarize") {
		t.Errorf("the summary request should have no tools and the summary instruction: %+v", sum.Messages[0])
	}
	after := reqs[4].Messages
	if after[1].Role != "user" || !strings.Contains(after[1].Content, "summary of the work") || !strings.Contains(after[1].Content, "The task: the task") {
		t.Errorf("compacted history starts with %+v", after[1])
	}
	if got := roles(after); got != "system user assistant tool" {
		t.Errorf("compacted request roles = %q", got)
	}
	if n := countState(evs, StateCompacting); n != 1 {
		t.Errorf("compacting states = %d", n)
	}
}

func TestCompactionIsCapped(t *testing.T) {
	rounds := []llmtest.Round{llmtest.ToolRound(call("c1", "echo", `{}`)), llmtest.ToolRound(call("c2", "echo", `{}`))}
	for i := 0; i < 6; i++ {
		rounds = append(rounds, llmtest.ContextLengthRound(), llmtest.TextRound("summary"))
	}
	s, _ := newSession(t, llmtest.Rounds(rounds...), func(o *Options) { o.Limits.MaxCompactions = 1; o.Limits.KeepRounds = 1 })
	_, st := runTask(t, context.Background(), s, "big")
	if st.Reason != StopContextOverflow {
		t.Fatalf("stop = %s (%s), want context_overflow", st.Reason, st.Message)
	}
}

func TestCompactionByWindowEstimate(t *testing.T) {
	big := strings.Repeat("x", 2000)
	s, srv := newSession(t, llmtest.Rounds(
		llmtest.Round{ToolCalls: []llmtest.Call{call("c1", "echo", `{"path":"`+big+`"}`)}, Placement: llmtest.UsageAbsent},
		llmtest.Round{ToolCalls: []llmtest.Call{call("c2", "echo", `{"path":"`+big+`"}`)}, Placement: llmtest.UsageAbsent},
		llmtest.Round{Text: "summary", Placement: llmtest.UsageAbsent},
		llmtest.Round{Text: "done", Placement: llmtest.UsageAbsent},
	), func(o *Options) { o.ContextWindow = 2200; o.Limits.KeepRounds = 1 })
	_, st := runTask(t, context.Background(), s, "go")
	if st.Reason != StopCompleted {
		t.Fatalf("stop = %s (%s)", st.Reason, st.Message)
	}
	if len(srv.Requests()) != 4 || !strings.Contains(srv.Requests()[2].Messages[0].Content, "Summarize") {
		t.Errorf("expected the third request to be the summary; got %d requests", len(srv.Requests()))
	}
}

func countState(evs []Event, st State) int {
	n := 0
	for _, e := range eventsOf[StateChanged](evs) {
		if e.To == st {
			n++
		}
	}
	return n
}

func TestCompactOnDemand(t *testing.T) {
	s, srv := newSession(t, llmtest.Rounds(
		llmtest.ToolRound(call("c1", "echo", `{"path":"a"}`)),
		llmtest.ToolRound(call("c2", "echo", `{"path":"b"}`)),
		llmtest.TextRound("first done"),
		llmtest.TextRound("the summary"),
		llmtest.TextRound("second done"),
	), func(o *Options) { o.Limits.KeepRounds = 1 })
	if _, err := s.Compact(context.Background()); err == nil {
		t.Fatal("compacting an empty conversation should say there is nothing to compact")
	}
	if _, st := runTask(t, context.Background(), s, "first task"); st.Reason != StopCompleted {
		t.Fatal(st.Message)
	}
	msg, err := s.Compact(context.Background())
	if err != nil || !strings.Contains(msg, "compacted") {
		t.Fatalf("compact: %q %v", msg, err)
	}
	if c := compactedEvent(t, s); c.TokensBefore <= 0 || c.TokensAfter != s.estimateTokens() {
		t.Errorf("the compaction's event: %+v, want the estimates before and after (%d)", c, s.estimateTokens())
	}
	if _, st := runTask(t, context.Background(), s, "second task"); st.Reason != StopCompleted {
		t.Fatal(st.Message)
	}
	last := srv.Requests()[4].Messages
	if got := roles(last); got != "system user assistant user" || !strings.Contains(last[1].Content, "the summary") || !strings.Contains(last[1].Content, "first task") {
		t.Errorf("after /compact the request is %q: %+v", got, last[1])
	}
}

func TestSetProviderSwitchesTheNextRound(t *testing.T) {
	s, first := newSession(t, llmtest.Rounds(llmtest.TextRound("from the first")), nil)
	second := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("from the second")))
	if _, st := runTask(t, context.Background(), s, "one"); st.Result != "from the first" {
		t.Fatal(st.Result)
	}
	s.SetProvider(&RetryingProvider{Clients: []*llm.Client{llm.New(llm.Config{Name: "b", BaseURL: second.URL(), APIKey: "k", Model: "other-model"})}}, "other-model")
	if _, st := runTask(t, context.Background(), s, "two"); st.Result != "from the second" || s.Model() != "other-model" {
		t.Fatalf("%q %s", st.Result, s.Model())
	}
	if len(first.Requests()) != 1 || second.Requests()[0].Model != "other-model" {
		t.Errorf("requests: first %d, second model %q", len(first.Requests()), second.Requests()[0].Model)
	}
}

func TestCompactCanBeCancelled(t *testing.T) {
	s, _ := newSession(t, llmtest.Rounds(
		llmtest.ToolRound(call("c1", "echo", `{"path":"a"}`)),
		llmtest.ToolRound(call("c2", "echo", `{"path":"b"}`)),
		llmtest.TextRound("done"),
		llmtest.Round{Text: "a summary that hangs", Hang: true, HangAfter: 1},
	), func(o *Options) { o.Limits.KeepRounds = 1 })
	if _, st := runTask(t, context.Background(), s, "first"); st.Reason != StopCompleted {
		t.Fatal(st.Message)
	}
	errc := make(chan error, 1)
	go func() { _, err := s.Compact(context.Background()); errc <- err }()
	waitFor[StateChanged](t, s) // compacting
	s.Cancel()
	if err := <-errc; err == nil || strings.Contains(err.Error(), "compacting the conversation failed: compacting") {
		t.Fatalf("cancelled compaction: %v", err)
	}
	if s.Running() {
		t.Error("the session still counts as running")
	}
}

func TestEstimateKeepsUpWithTheHistory(t *testing.T) {
	s, _ := newSession(t, llmtest.Rounds(
		llmtest.ToolRound(call("c1", "echo", `{"path":"a"}`)),
		llmtest.TextRound("done"),
	), nil)
	if _, st := runTask(t, context.Background(), s, "go"); st.Reason != StopCompleted {
		t.Fatal(st.Message)
	}
	want := (len(s.opts.SystemPrompt) + historyBytes(s.History())) / 4
	if got := s.estimateTokens(); got != want || got == 0 {
		t.Errorf("estimate %d, recomputed %d", got, want)
	}
}

// compactedEvent waits for /compact's event: the context figure drops at
// once (issue 32), not at the next round.
func compactedEvent(t *testing.T, s *Session) ContextCompacted {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		select {
		case ev := <-s.Events():
			if c, ok := ev.(ContextCompacted); ok {
				return c
			}
		case <-deadline:
			t.Fatal("no ContextCompacted event after /compact")
		}
	}
}

// A server whose usage is far below keel's own estimate of the request
// (here it claims 10 prompt tokens for ~1,000) is not believed: compaction
// goes by the estimate and the user is told once.
func TestCompactionDoesNotTrustLyingUsage(t *testing.T) {
	big := strings.Repeat("x", 2000)
	lie := &llmtest.Usage{PromptTokens: 10, CompletionTokens: 5}
	s, srv := newSession(t, llmtest.Rounds(
		llmtest.Round{ToolCalls: []llmtest.Call{call("c1", "echo", `{"path":"`+big+`"}`)}, Usage: lie},
		llmtest.Round{ToolCalls: []llmtest.Call{call("c2", "echo", `{"path":"`+big+`"}`)}, Usage: lie},
		llmtest.Round{Text: "summary", Usage: lie},
		llmtest.Round{Text: "done", Usage: lie},
	), func(o *Options) { o.ContextWindow = 2200; o.Limits.KeepRounds = 1 })
	evs, st := runTask(t, context.Background(), s, "go")
	if st.Reason != StopCompleted {
		t.Fatalf("stop = %s (%s)", st.Reason, st.Message)
	}
	if len(srv.Requests()) != 4 || !strings.Contains(srv.Requests()[2].Messages[0].Content, "Summarize") {
		t.Fatalf("expected the third request to be the summary; got %d requests", len(srv.Requests()))
	}
	var notes []string
	for _, n := range eventsOf[Notice](evs) {
		if strings.Contains(n.Text, "prompt tokens") {
			notes = append(notes, n.Text)
		}
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "the server reported 10 prompt tokens") {
		t.Errorf("notices %q, want one saying the server's count is not believed", notes)
	}
	if u := eventsOf[UsageUpdated](evs); len(u) < 2 || u[1].Round.PromptTokens != 10 || u[1].ContextTokens < 1000 {
		t.Errorf("usage %+v: the server's figure counts as usage, the estimate as context", u)
	}
}

// Must not fire: a server that reports more than keel's estimate (it
// counts the tools, keel does not) is believed, and nothing is said.
func TestCompactionTrustsUsageAboveEstimate(t *testing.T) {
	for _, reported := range []int{5000, 400} {
		s, _ := newSession(t, llmtest.Rounds(
			llmtest.Round{ToolCalls: []llmtest.Call{call("c1", "echo", `{"path":"a"}`)}, Usage: &llmtest.Usage{PromptTokens: reported}},
			llmtest.Round{Text: "done", Usage: &llmtest.Usage{PromptTokens: reported}},
		), nil)
		evs, st := runTask(t, context.Background(), s, "go")
		if st.Reason != StopCompleted {
			t.Fatalf("stop = %s (%s)", st.Reason, st.Message)
		}
		for _, n := range eventsOf[Notice](evs) {
			if strings.Contains(n.Text, "prompt tokens") {
				t.Errorf("reported %d: notice %q for an honest server", reported, n.Text)
			}
		}
		if u := eventsOf[UsageUpdated](evs); len(u) == 0 || u[0].ContextTokens != reported {
			t.Errorf("reported %d: context tokens %+v, want the server's figure", reported, u)
		}
	}
}

// TestCompactionAfterAnAnswerSentBack: an answer cut at the output limit
// is sent back to continue, and the next request needs compacting first:
// the task moves synthesizing → executing → compacting, never straight
// from synthesizing (OnInternalError fails the test on a bad transition).
func TestCompactionAfterAnAnswerSentBack(t *testing.T) {
	big := strings.Repeat("x", 4000)
	s, srv := newSession(t, llmtest.Rounds(
		llmtest.Round{ToolCalls: []llmtest.Call{call("c1", "echo", `{"path":"a"}`)}, Placement: llmtest.UsageAbsent},
		llmtest.Round{Text: "the first half " + big, FinishReason: "length", Placement: llmtest.UsageAbsent},
		llmtest.Round{Text: "summary", Placement: llmtest.UsageAbsent},
		llmtest.Round{Text: " and the rest", Placement: llmtest.UsageAbsent},
	), func(o *Options) { o.ContextWindow = 1200; o.Limits.KeepRounds = 1 })
	evs, st := runTask(t, context.Background(), s, "go")
	if st.Reason != StopCompleted || !strings.HasSuffix(st.Result, " and the rest") {
		t.Fatalf("stop = %s (%s) %q", st.Reason, st.Message, st.Result)
	}
	if len(srv.Requests()) != 4 || !strings.Contains(srv.Requests()[2].Messages[0].Content, "Summarize") {
		t.Fatalf("expected the third request to be the summary; got %d requests", len(srv.Requests()))
	}
	for _, e := range eventsOf[StateChanged](evs) {
		if e.To == StateCompacting && e.From != StateExecuting {
			t.Errorf("compacting entered from %s", e.From)
		}
	}
}
