package llmtest

import (
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"time"
)

// player answers one request with one Round.
type player struct {
	s     *Server
	w     http.ResponseWriter
	r     *http.Request
	round *Round
	n     int
	model string
}

// wait sleeps d unless the client goes away or the server closes; it
// reports whether the full time passed.
func (p *player) wait(d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-p.r.Context().Done():
	case <-p.s.done:
	}
	return false
}

// hang keeps the connection open and silent until the client or server quits.
func (p *player) hang() {
	p.flush()
	var tick <-chan time.Time
	if every := p.round.KeepAliveEvery; every > 0 {
		t := time.NewTicker(every)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-p.r.Context().Done():
			return
		case <-p.s.done:
			return
		case <-tick:
			_, _ = p.w.Write([]byte(": keep-alive\n\n"))
			p.flush()
		}
	}
}

func (p *player) flush() { _ = http.NewResponseController(p.w).Flush() }

// reset aborts the TCP connection with an RST.
func (p *player) reset() {
	conn, _, err := http.NewResponseController(p.w).Hijack()
	if err != nil {
		return
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

// preamble applies Delay, headers and status faults; it reports whether a
// stream should follow.
func (p *player) preamble() bool {
	rd := p.round
	if !p.wait(rd.Delay) {
		return false
	}
	for k, vs := range rd.Headers {
		for _, v := range vs {
			p.w.Header().Add(k, v)
		}
	}
	if rd.ResetConnection && rd.ResetAfter == 0 && rd.Status == 0 {
		p.reset()
		return false
	}
	if rd.Status != 0 {
		body := rd.Body
		if body == "" {
			body = errorBody(http.StatusText(rd.Status), errorType(rd.Status), "")
		}
		p.w.Header().Set("Content-Type", "application/json")
		p.w.WriteHeader(rd.Status)
		_, _ = p.w.Write([]byte(body))
		return false
	}
	return true
}

// stream sends the round as server-sent events, applying its faults.
func (p *player) stream() {
	if !p.preamble() {
		return
	}
	rd := p.round
	h := p.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	p.w.WriteHeader(http.StatusOK)
	if rd.KeepAlives > 0 {
		_, _ = p.w.Write([]byte(strings.Repeat(": keep-alive\n\n", rd.KeepAlives)))
	}
	p.flush()
	cs := chunks(rd, p.n, p.model)
	for i := 0; i <= len(cs); i++ {
		if p.cut(i) {
			return
		}
		if i == len(cs) {
			break
		}
		if i > 0 && !p.wait(rd.DelayBetweenChunks) {
			return
		}
		_, _ = p.w.Write(append(append([]byte("data: "), cs[i]...), '\n', '\n'))
		p.flush()
	}
	if !rd.NoDone {
		_, _ = p.w.Write([]byte("data: [DONE]\n\n"))
	}
	p.flush()
	p.wait(rd.EndDelay)
}

// cut applies truncation, hang and reset faults before chunk i; it reports
// whether the stream must stop.
func (p *player) cut(i int) bool {
	rd := p.round
	switch {
	case rd.TruncateAfter > 0 && i == rd.TruncateAfter:
		p.flush()
		return true // the handler returns: a clean end without finish or [DONE]
	case rd.Hang && i == rd.HangAfter:
		p.hang()
		return true
	case rd.ResetConnection && i == rd.ResetAfter:
		p.flush()
		p.reset()
		return true
	}
	return false
}

// whole answers a non-streaming request with one chat.completion object.
func (p *player) whole() {
	if !p.preamble() {
		return
	}
	rd := p.round
	msg := map[string]any{"role": "assistant", "content": rd.Text}
	if rd.Text == "" {
		msg["content"] = nil
	}
	if rd.Reasoning != "" {
		field := rd.ReasoningField
		if field == "" {
			field = "reasoning_content"
		}
		msg[field] = rd.Reasoning
	}
	var calls []any
	for i, c := range rd.ToolCalls {
		calls = append(calls, map[string]any{"id": callID(c, i), "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": c.Args}})
	}
	if calls != nil {
		msg["tool_calls"] = calls
	}
	c := &chunker{r: rd}
	obj := map[string]any{
		"id": "chatcmpl-llmtest", "object": "chat.completion", "created": 1700000000, "model": p.model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": c.finishReason()}},
		"usage":   c.usage(),
	}
	p.w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(p.w).Encode(obj)
}
