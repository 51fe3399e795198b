package llmtest

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// chunker renders a Round as the JSON payloads of its SSE data lines.
type chunker struct {
	r     *Round
	id    string
	model string
	out   [][]byte
}

// chunks returns the data payloads of a round, without "[DONE]".
func chunks(r *Round, n int, model string) [][]byte {
	c := &chunker{r: r, id: "chatcmpl-llmtest-" + strconv.Itoa(n), model: model}
	if r.PlaceholderFirstChunk {
		c.emit(nil, nil)
	}
	c.emit(c.choice(c.delta(map[string]any{"role": "assistant", "content": ""}), nil), nil)
	field := r.ReasoningField
	if field == "" {
		field = "reasoning_content"
	}
	for _, p := range split(r.Reasoning, orDefault(r.TextChunk, 16)) {
		c.emit(c.choice(c.delta(map[string]any{field: p}), nil), nil)
	}
	for _, p := range split(r.Text, orDefault(r.TextChunk, 16)) {
		d := map[string]any{"content": p}
		if r.EmptyToolCallsOnText {
			d["tool_calls"] = []any{}
		}
		c.emit(c.choice(c.delta(d), nil), nil)
	}
	c.toolCalls()
	c.finish()
	return c.out
}

// toolCalls emits each call's head (id and name) then its argument pieces,
// call after call or round-robin when Interleave is set.
func (c *chunker) toolCalls() {
	calls := c.r.ToolCalls
	pieces := make([][]string, len(calls))
	for i, call := range calls {
		pieces[i] = split(call.Args, orDefault(c.r.ArgChunk, 8))
	}
	if !c.r.Interleave {
		for i := range calls {
			c.toolDelta(i, true, "")
			for _, p := range pieces[i] {
				c.toolDelta(i, false, p)
			}
		}
		return
	}
	for i := range calls {
		c.toolDelta(i, true, "")
	}
	for k := 0; ; k++ {
		sent := false
		for i := range calls {
			if k < len(pieces[i]) {
				c.toolDelta(i, false, pieces[i][k])
				sent = true
			}
		}
		if !sent {
			return
		}
	}
}

func (c *chunker) toolDelta(i int, head bool, args string) {
	call := c.r.ToolCalls[i]
	tc := map[string]any{"function": map[string]any{"arguments": args}}
	if !c.r.OmitIndex {
		tc["index"] = i
	}
	if head || c.r.IDOnEveryChunk {
		tc["id"] = callID(call, i)
	}
	if head {
		tc["type"] = "function"
		tc["function"] = map[string]any{"name": call.Name, "arguments": ""}
	}
	c.emit(c.choice(c.delta(map[string]any{"tool_calls": []any{tc}}), nil), nil)
}

func callID(call Call, i int) string {
	if call.ID != "" {
		return call.ID
	}
	return "call_" + strconv.Itoa(i)
}

// finishReason is the round's, or the one OpenAI would send.
func (c *chunker) finishReason() string {
	switch {
	case c.r.FinishReason != "":
		return c.r.FinishReason
	case len(c.r.ToolCalls) > 0:
		return "tool_calls"
	}
	return "stop"
}

func (c *chunker) finish() {
	reason := c.finishReason()
	usage := c.usage()
	fin := c.choice(c.delta(map[string]any{}), reason)
	if c.r.Placement == UsageInFinishChunk {
		c.emit(fin, usage)
		return
	}
	c.emit(fin, nil)
	if c.r.Placement == UsageSeparateChunk {
		c.emit(nil, usage)
	}
}

func (c *chunker) usage() map[string]any {
	u := Usage{PromptTokens: 100, CompletionTokens: 10}
	if c.r.Usage != nil {
		u = *c.r.Usage
	}
	return map[string]any{
		"prompt_tokens":         u.PromptTokens,
		"completion_tokens":     u.CompletionTokens,
		"total_tokens":          u.PromptTokens + u.CompletionTokens,
		"prompt_tokens_details": map[string]any{"cached_tokens": u.CachedTokens},
	}
}

func (c *chunker) delta(d map[string]any) map[string]any {
	if v, ok := d["content"]; (!ok || v == "") && c.r.NullContent {
		d["content"] = nil
	}
	if c.r.ExtraFields {
		d["x_llmtest_extra"] = map[string]any{"nested": []any{1, "two", nil}}
	}
	return d
}

func (c *chunker) choice(delta map[string]any, finish any) map[string]any {
	ch := map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}
	if c.r.ExtraFields {
		ch["x_llmtest_choice"] = true
	}
	return ch
}

// emit appends one chunk; a nil choice means "choices": [].
func (c *chunker) emit(choice, usage map[string]any) {
	choices := []any{}
	if choice != nil {
		choices = append(choices, choice)
	}
	obj := map[string]any{
		"id": c.id, "object": "chat.completion.chunk", "created": 1700000000,
		"model": c.model, "choices": choices, "usage": usage,
	}
	if c.r.ExtraFields {
		obj["system_fingerprint"] = "fp_llmtest"
		obj["x_llmtest_unknown"] = map[string]any{"a": []any{1, 2, 3}}
	}
	b, _ := json.Marshal(obj) // maps of plain values always marshal
	c.out = append(c.out, b)
}

// split cuts s into pieces of at most n bytes (n >= 1), never inside a
// UTF-8 sequence: a piece holds at least one whole rune.
func split(s string, n int) []string {
	var out []string
	for s != "" {
		end := 0
		for end < len(s) {
			_, size := utf8.DecodeRuneInString(s[end:])
			if end > 0 && end+size > n {
				break
			}
			end += size
		}
		out = append(out, s[:end])
		s = s[end:]
	}
	return out
}

func orDefault(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}
