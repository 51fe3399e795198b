package agent

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/agent/llmtest"
)

func TestTwoToolCallsThenAnswer(t *testing.T) {
	s, srv := newSession(t, llmtest.Rounds(
		llmtest.ToolRound(call("c1", "echo", `{"path":"a.go"}`)),
		llmtest.ToolRound(call("c2", "echo", `{"path":"b.go"}`)),
		llmtest.TextRound("done: both read"),
	), nil)
	_, st := runTask(t, context.Background(), s, "read two files")
	if st.Reason != StopCompleted || st.Summary.Turns != 3 || st.Summary.ToolCalls != 2 {
		t.Fatalf("stop = %s turns=%d calls=%d, want completed 3 2 (%s)", st.Reason, st.Summary.Turns, st.Summary.ToolCalls, st.Message)
	}
	if st.Result != "done: both read" {
		t.Errorf("result = %q", st.Result)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("server got %d requests, want 3", len(reqs))
	}
	last := reqs[2].Messages
	if got := roles(last); got != "system user assistant tool assistant tool" {
		t.Errorf("third request roles = %q", got)
	}
	if last[3].ToolCallID != "c1" || !strings.Contains(last[3].Content, "a.go") {
		t.Errorf("first tool result = %+v", last[3])
	}
}

func roles(msgs []llmtest.RecordedMessage) string {
	var r []string
	for _, m := range msgs {
		r = append(r, m.Role)
	}
	return strings.Join(r, " ")
}

func TestParallelCallsKeepCallOrder(t *testing.T) {
	s, srv := newSession(t, llmtest.Rounds(
		llmtest.Round{ToolCalls: []llmtest.Call{call("a", "echo", `{"path":"1"}`), call("b", "echo", `{"path":"2"}`), call("c", "echo", `{"path":"3"}`)}, Interleave: true, ArgChunk: 1},
		llmtest.TextRound("ok"),
	), nil)
	_, st := runTask(t, context.Background(), s, "go")
	if st.Reason != StopCompleted || st.Summary.ToolCalls != 3 {
		t.Fatalf("stop %s calls %d", st.Reason, st.Summary.ToolCalls)
	}
	msgs := srv.Requests()[1].Messages
	var ids []string
	for _, m := range msgs {
		if m.Role == "tool" {
			ids = append(ids, m.ToolCallID+"="+m.Content)
		}
	}
	want := `a=ok {"path":"1"} b=ok {"path":"2"} c=ok {"path":"3"}`
	if got := strings.Join(ids, " "); got != want {
		t.Errorf("tool results = %s, want %s", got, want)
	}
}

func TestModelMistakesGetExplainedAndTheLoopGoesOn(t *testing.T) {
	cases := []struct {
		name string
		call llmtest.Call
		want []string
	}{
		{"unknown tool", call("x", "rm_everything", `{}`), []string{`no tool named "rm_everything"`, "Available tools: echo"}},
		{"broken JSON", call("x", "echo", `{"path": "a.go"`), []string{"not a valid JSON object", `"path": ...`}},
		{"not an object", call("x", "echo", `["a"]`), []string{"not a valid JSON object"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, srv := newSession(t, llmtest.Rounds(llmtest.ToolRound(c.call), llmtest.TextRound("sorry")), nil)
			_, st := runTask(t, context.Background(), s, "go")
			if st.Reason != StopCompleted {
				t.Fatalf("stop = %s: %s", st.Reason, st.Message)
			}
			tool := lastTool(srv.Requests()[1].Messages)
			for _, w := range c.want {
				if !strings.Contains(tool.Content, w) {
					t.Errorf("tool result %q lacks %q", tool.Content, w)
				}
			}
		})
	}
}

func lastTool(msgs []llmtest.RecordedMessage) llmtest.RecordedMessage {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "tool" {
			return msgs[i]
		}
	}
	return llmtest.RecordedMessage{}
}

func TestLengthCutGetsOneContinuation(t *testing.T) {
	s, srv := newSession(t, llmtest.Rounds(
		llmtest.Round{Text: "part one", FinishReason: "length"},
		llmtest.Round{Text: " part two", FinishReason: "length"},
	), nil)
	_, st := runTask(t, context.Background(), s, "write a lot")
	if st.Reason != StopCompleted || len(srv.Requests()) != 2 {
		t.Fatalf("stop %s after %d requests", st.Reason, len(srv.Requests()))
	}
	if st.Result != "part one part two" {
		t.Errorf("result = %q, want both parts", st.Result)
	}
	cont := srv.Requests()[1].Messages
	if m := cont[len(cont)-1]; m.Role != "user" || !strings.Contains(m.Content, "Continue exactly where you stopped") {
		t.Errorf("continuation message = %+v", m)
	}
}

func TestLimitsStopWithTheirReason(t *testing.T) {
	loop := func(n int) []llmtest.Round {
		var rs []llmtest.Round
		for i := 0; i < n; i++ {
			rs = append(rs, llmtest.Round{ToolCalls: []llmtest.Call{call("", "echo", `{"path":"`+string(rune('a'+i))+`"}`)}, Usage: &llmtest.Usage{PromptTokens: 100, CompletionTokens: 50}})
		}
		return rs
	}
	cases := []struct {
		name   string
		limits Limits
		want   StopReason
	}{
		{"max_turns", Limits{MaxTurns: 3}, StopMaxTurns},
		{"max_tool_calls", Limits{MaxToolCalls: 2}, StopMaxToolCalls},
		{"token_budget", Limits{TokenBudget: 400}, StopTokenBudget},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, _ := newSession(t, llmtest.Rounds(loop(10)...), func(o *Options) { o.Limits = c.limits })
			_, st := runTask(t, context.Background(), s, "loop")
			if st.Reason != c.want || !st.Reason.Halted() {
				t.Fatalf("stop = %s (%s), want %s", st.Reason, st.Message, c.want)
			}
			if !strings.Contains(st.Message, "no plan recorded") {
				t.Errorf("message %q does not say where the task stands", st.Message)
			}
		})
	}
}

func TestProviderFaults(t *testing.T) {
	cases := []struct {
		name    string
		rounds  []llmtest.Round
		want    StopReason
		retries int
		msg     string
	}{
		{"429 then success", []llmtest.Round{llmtest.RateLimitRound("2"), llmtest.TextRound("hi")}, StopCompleted, 1, ""},
		{"503 twice then success", []llmtest.Round{llmtest.ErrorRound(503, "busy"), llmtest.ErrorRound(502, "bad gw"), llmtest.TextRound("hi")}, StopCompleted, 2, ""},
		{"truncated then success", []llmtest.Round{{Text: "partial answer that is long enough", TruncateAfter: 1}, llmtest.TextRound("hi")}, StopCompleted, 1, ""},
		{"5xx four times", []llmtest.Round{llmtest.ErrorRound(500, "x"), llmtest.ErrorRound(500, "x"), llmtest.ErrorRound(500, "x"), llmtest.ErrorRound(500, "x")}, StopProviderError, 3, ""},
		{"401", []llmtest.Round{llmtest.ErrorRound(http.StatusUnauthorized, "bad key")}, StopProviderError, 0, "FAKE_API_KEY"},
		{"other 400", []llmtest.Round{llmtest.ErrorRound(400, "temperature must be below 2")}, StopProviderError, 0, "temperature must be below 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, _ := newSession(t, llmtest.Rounds(c.rounds...), nil)
			evs, st := runTask(t, context.Background(), s, "hello")
			if st.Reason != c.want {
				t.Fatalf("stop = %s (%s), want %s", st.Reason, st.Message, c.want)
			}
			if got := len(eventsOf[Retrying](evs)); got != c.retries {
				t.Errorf("retries = %d, want %d", got, c.retries)
			}
			if c.msg != "" && !strings.Contains(st.Message, c.msg) {
				t.Errorf("message %q lacks %q", st.Message, c.msg)
			}
			if c.want == StopCompleted && st.Result != "hi" {
				t.Errorf("result = %q", st.Result)
			}
		})
	}
}

func TestRateLimitIsShownAsAState(t *testing.T) {
	s, _ := newSession(t, llmtest.Rounds(llmtest.RateLimitRound("12"), llmtest.TextRound("hi")), nil)
	evs, _ := runTask(t, context.Background(), s, "hello")
	var found, resumed bool
	for _, sc := range eventsOf[StateChanged](evs) {
		if sc.To == StateRetrying && strings.Contains(sc.Detail, "rate limited") && strings.Contains(sc.Detail, "12 s") {
			found = true
		}
		if found && sc.From == StateRetrying && sc.To == StateRecognizing {
			resumed = true
		}
	}
	if !resumed {
		t.Errorf("the state stayed retrying while the retried answer streamed")
	}
	if !found {
		t.Errorf("no retrying state with the wait; events:\n%s", describe(evs))
	}
}

func TestFallbackProvider(t *testing.T) {
	bad := llmtest.Start(t, llmtest.Rounds(llmtest.ErrorRound(500, "a"), llmtest.ErrorRound(500, "a"), llmtest.ErrorRound(500, "a"), llmtest.ErrorRound(500, "a")))
	s, good := newSession(t, llmtest.Rounds(llmtest.TextRound("from fallback")), func(o *Options) {
		p := o.Provider.(*RetryingProvider)
		first := llm.New(llm.Config{Name: "bad", BaseURL: bad.URL(), APIKey: "k", Model: "m"})
		p.Clients = append([]*llm.Client{first}, p.Clients...)
	})
	_, st := runTask(t, context.Background(), s, "hello")
	if st.Reason != StopCompleted || st.Result != "from fallback" || len(good.Requests()) != 1 {
		t.Fatalf("stop %s %q, fallback got %d requests", st.Reason, st.Result, len(good.Requests()))
	}
}

func TestMaxToolCallsHoldsWithinOneRound(t *testing.T) {
	s, srv := newSession(t, llmtest.Rounds(
		llmtest.ToolRound(call("a", "echo", `{"path":"1"}`), call("b", "echo", `{"path":"2"}`), call("c", "echo", `{"path":"3"}`), call("d", "echo", `{"path":"4"}`)),
		llmtest.TextRound("never"),
	), func(o *Options) { o.Limits.MaxToolCalls = 2 })
	_, st := runTask(t, context.Background(), s, "many")
	if st.Reason != StopMaxToolCalls {
		t.Fatalf("stop = %s", st.Reason)
	}
	if ran := s.opts.Tools[0].(*fakeTool).calls.Load(); ran != 2 {
		t.Errorf("%d calls ran, want 2", ran)
	}
	// Issue 26: the message said "4 tool calls made" when 2 ran.
	if want := "stopped at max_tool_calls (2): 2 tool calls made, 2 more the model asked for in the last round skipped, not run; no plan recorded"; st.Message != want {
		t.Errorf("message %q,\nwant %q", st.Message, want)
	}
	if st.Summary.ToolCalls != 2 {
		t.Errorf("summary counts %d tool calls, want the 2 made", st.Summary.ToolCalls)
	}
	hist := s.History()
	last := hist[len(hist)-1]
	if last.Role != "tool" || last.ToolCallID != "d" || !strings.Contains(last.Content, "max_tool_calls") {
		t.Errorf("the call past the limit got %+v", last)
	}
	if len(srv.Requests()) != 1 {
		t.Errorf("requests = %d", len(srv.Requests()))
	}
}
