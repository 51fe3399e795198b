package demo

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llm"
)

func firstRequest() llm.Request {
	return llm.Request{Messages: []llm.Message{
		{Role: llm.RoleSystem, Content: "You are keel."},
		{Role: llm.RoleUser, Content: "hello"},
	}}
}

func TestStreamDeltasMakeTheResponse(t *testing.T) {
	var text, reasoning strings.Builder
	args := map[int]string{}
	resp, err := (&Provider{}).Stream(context.Background(), firstRequest(), func(d llm.Delta) {
		switch d.Kind {
		case llm.DeltaText:
			text.WriteString(d.Text)
		case llm.DeltaReasoning:
			reasoning.WriteString(d.Text)
		case llm.DeltaToolCall:
			args[d.ToolIndex] += d.Text
		}
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != text.String() || resp.Reasoning != reasoning.String() || resp.Reasoning == "" {
		t.Errorf("streamed text/reasoning differ from the response")
	}
	if len(resp.ToolCalls) != 2 || resp.ToolCalls[0].Name != "update_plan" || resp.ToolCalls[1].Name != "list_dir" {
		t.Fatalf("first answer's calls: %+v", resp.ToolCalls)
	}
	for i, c := range resp.ToolCalls {
		if args[i] != c.Arguments {
			t.Errorf("call %d: streamed %q, response %q", i, args[i], c.Arguments)
		}
	}
	if resp.FinishReason != "tool_calls" || !resp.UsageKnown || resp.Usage.PromptTokens == 0 || resp.Usage.CompletionTokens == 0 {
		t.Errorf("finish %q, usage %+v known %v", resp.FinishReason, resp.Usage, resp.UsageKnown)
	}
}

func TestStreamIsDeterministic(t *testing.T) {
	a, _ := (&Provider{}).Stream(context.Background(), firstRequest(), nil, nil)
	b, _ := (&Provider{}).Stream(context.Background(), firstRequest(), nil, nil)
	a.FirstToken, a.Duration, b.FirstToken, b.Duration = 0, 0, 0, 0
	if !reflect.DeepEqual(a, b) {
		t.Error("the same request got two different answers")
	}
}

func TestStreamStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p := &Provider{Delay: time.Hour} // only cancellation can end it
	deltas := 0
	done := make(chan error, 1)
	go func() {
		_, err := p.Stream(ctx, firstRequest(), func(llm.Delta) { deltas++ }, nil)
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
	if deltas != 0 {
		t.Errorf("%d deltas after cancel", deltas)
	}
}

func TestStreamPaces(t *testing.T) {
	p := &Provider{Delay: time.Millisecond}
	var times []time.Time
	if _, err := p.Stream(context.Background(), firstRequest(), func(llm.Delta) { times = append(times, time.Now()) }, nil); err != nil {
		t.Fatal(err)
	}
	if len(times) < 10 {
		t.Fatalf("only %d deltas", len(times))
	}
	// Deltas are spread out, not delivered in one burst.
	if spread := times[len(times)-1].Sub(times[0]); spread < time.Duration(len(times)-1)*time.Millisecond {
		t.Errorf("%d deltas within %s", len(times), spread)
	}
}

func TestChunksJoinBack(t *testing.T) {
	for _, s := range []string{"", "one", "a b c d e f g", "line one\nline two  with  spaces ", startIntro} {
		if got := strings.Join(chunks(s, 3), ""); got != s {
			t.Errorf("chunks(%q) join to %q", s, got)
		}
	}
}

func TestUsageCachesThePrefix(t *testing.T) {
	req := firstRequest()
	req.Messages = append(req.Messages,
		llm.Message{Role: llm.RoleAssistant, Content: strings.Repeat("x", 4000)},
		llm.Message{Role: llm.RoleUser, Content: "more"})
	u := usage(req, llm.Response{Content: "answer"})
	if u.CachedTokens == 0 || u.CachedTokens > u.PromptTokens || u.CompletionTokens == 0 {
		t.Errorf("usage %+v", u)
	}
}
