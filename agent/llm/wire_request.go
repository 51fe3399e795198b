package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"sync"
)

// The request body: each message is encoded once and kept, and the
// body's head only appended to, so a round encodes what it added instead
// of the whole history (doc.go says why this is keel's own).

// wireMsg is one message as the chat-completions API expects it.
type wireMsg struct {
	Role       Role       `json:"role"`
	Content    *string    `json:"content,omitempty"` // nil only for an assistant message with tool calls and no text
	ToolCalls  []wireCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	Name       string     `json:"name,omitempty"`
}

type wireCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// encodeMessage renders one message. Reasoning is never sent back.
func encodeMessage(m *Message) ([]byte, error) {
	if len(m.Images) > 0 {
		return encodeImageMessage(m)
	}
	w := wireMsg{Role: m.Role, ToolCallID: m.ToolCallID, Name: m.Name}
	if m.Content != "" || len(m.ToolCalls) == 0 {
		w.Content = &m.Content
	}
	for _, c := range m.ToolCalls {
		wc := wireCall{ID: c.ID, Type: "function"}
		wc.Function.Name, wc.Function.Arguments = c.Name, c.Arguments
		w.ToolCalls = append(w.ToolCalls, wc)
	}
	return marshal(w)
}

// marshal encodes without HTML escaping (smaller, and what servers echo).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// encodeCache keeps the encodings of the last history a client sent. The
// next request usually extends it, so only the new messages are encoded;
// comparing the kept prefix is cheap because unchanged strings share memory.
// The body's head (the model and the messages so far) is kept too and only
// appended to, so a round does not copy the whole history into a new
// buffer: at 400 rounds that copy, and the garbage it left, was most of
// building a request.
type encodeCache struct {
	mu    sync.Mutex
	msgs  []Message
	enc   [][]byte
	tools []ToolDef       // the tool list last encoded
	wire  json.RawMessage // its encoding; the same every round of a session

	head      []byte // {"model":…,"messages":[ and the encodings of headMsgs messages
	headModel string
	headMsgs  int

	// tail is the body's end after the messages, which changes only with
	// the tools and the token limits (tailOf); never modified once made,
	// as bodies handed out share it.
	tail   []byte
	tailOf tailKey
}

// tailKey is what a body's tail is made of.
type tailKey struct {
	tools                          *byte // the tool list's encoding, by identity
	maxTokens, maxCompletionTokens int
}

// wireBody is a request body in two parts: the cached head, which later
// requests extend past its end (never inside it), and this request's tail.
type wireBody struct {
	head, tail []byte
}

// Len is the body's length in bytes.
func (b wireBody) Len() int { return len(b.head) + len(b.tail) }

// Reader reads the body from its start.
func (b wireBody) Reader() *bodyReader { return &bodyReader{parts: [2][]byte{b.head, b.tail}} }

// bodyReader reads a wireBody without copying it into one slice. Its
// WriteTo hands each part to the writer as it is: io.MultiReader's copies
// through a new 32 KiB buffer. Close does nothing.
type bodyReader struct {
	parts [2][]byte
	i     int // the part being read
}

// Close does nothing: the body is memory.
func (r *bodyReader) Close() error { return nil }

// Len is how many bytes are left to read.
func (r *bodyReader) Len() int {
	n := 0
	for _, p := range r.parts[r.i:] {
		n += len(p)
	}
	return n
}

func (r *bodyReader) Read(p []byte) (int, error) {
	for r.i < len(r.parts) && len(r.parts[r.i]) == 0 {
		r.i++
	}
	if r.i == len(r.parts) {
		return 0, io.EOF
	}
	n := copy(p, r.parts[r.i])
	r.parts[r.i] = r.parts[r.i][n:]
	return n, nil
}

func (r *bodyReader) WriteTo(w io.Writer) (int64, error) {
	var total int64
	for ; r.i < len(r.parts); r.i++ {
		if len(r.parts[r.i]) == 0 {
			continue
		}
		n, err := w.Write(r.parts[r.i])
		total += int64(n)
		r.parts[r.i] = r.parts[r.i][n:]
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// Bytes is the body in one new slice (for captures and tests).
func (b wireBody) Bytes() []byte {
	return append(append(make([]byte, 0, b.Len()), b.head...), b.tail...)
}

// messages returns the encodings of ms, reusing the longest cached prefix,
// and how many messages that prefix held. The caller holds mu.
func (c *encodeCache) messages(ms []Message) ([][]byte, int, error) {
	n := 0
	for n < len(ms) && n < len(c.msgs) && sameWire(&ms[n], &c.msgs[n]) {
		n++
	}
	enc := c.enc[:n] // only the cache keeps enc: appending over its stale rest is fine
	for i := n; i < len(ms); i++ {
		b, err := encodeMessage(&ms[i])
		if err != nil {
			// The appends overwrote entries past n: keep the cache to the
			// prefix both still agree on.
			c.msgs, c.enc = c.msgs[:n], c.enc[:n]
			return nil, 0, fmt.Errorf("encode message %d: %w", i, err)
		}
		enc = append(enc, b)
	}
	c.msgs = c.msgs[:n]
	for _, m := range ms[n:] {
		m.ToolCalls = slices.Clone(m.ToolCalls) // the caller may reuse its slice
		m.Images = slices.Clone(m.Images)
		c.msgs = append(c.msgs, m)
	}
	c.enc = enc
	return enc, n, nil
}

// sameWire reports whether two messages encode identically.
func sameWire(a, b *Message) bool {
	return a.Role == b.Role && a.Content == b.Content && a.ToolCallID == b.ToolCallID &&
		a.Name == b.Name && slices.Equal(a.ToolCalls, b.ToolCalls) && sameImages(a.Images, b.Images)
}

type wireTool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

// body renders the whole request body for req. The caller has applied
// the client defaults (model, max tokens) already.
func (c *encodeCache) body(req Request, maxTokens, maxCompletionTokens int) (wireBody, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	msgs, same, err := c.messages(req.Messages)
	if err != nil {
		return wireBody{}, err
	}
	tools, err := c.toolsJSON(req.Tools)
	if err != nil {
		return wireBody{}, fmt.Errorf("encode tools: %w", err)
	}
	c.extendHead(req.Model, msgs, same)
	return wireBody{head: slices.Clip(c.head), tail: c.tailFor(tools, maxTokens, maxCompletionTokens)}, nil
}

// tailFor returns the body's end: the stream options, the tools and the
// token limits, made again only when one of them changed.
func (c *encodeCache) tailFor(tools json.RawMessage, maxTokens, maxCompletionTokens int) []byte {
	key := tailKey{maxTokens: maxTokens, maxCompletionTokens: maxCompletionTokens}
	if len(tools) > 0 {
		key.tools = &tools[0]
	}
	if c.tail != nil && key == c.tailOf {
		return c.tail
	}
	tail := append(make([]byte, 0, len(tools)+96), `],"stream":true,"stream_options":{"include_usage":true}`...)
	if len(tools) > 0 {
		tail = append(append(tail, `,"tools":`...), tools...)
	}
	if maxTokens > 0 {
		tail = strconv.AppendInt(append(tail, `,"max_tokens":`...), int64(maxTokens), 10)
	}
	if maxCompletionTokens > 0 {
		tail = strconv.AppendInt(append(tail, `,"max_completion_tokens":`...), int64(maxCompletionTokens), 10)
	}
	c.tail, c.tailOf = append(tail, '}'), key
	return c.tail
}

// extendHead makes the head hold model and msgs: it appends what is new
// when the head's model and messages are still the request's first ones
// (same of them are unchanged), and starts a new buffer otherwise, so a
// body handed out earlier never changes under its reader.
func (c *encodeCache) extendHead(model string, msgs [][]byte, same int) {
	if c.head == nil || model != c.headModel || same < c.headMsgs {
		size := len(model) + 32
		for _, m := range msgs {
			size += len(m) + 1
		}
		m, _ := marshal(model)
		c.head = append(append(append(make([]byte, 0, size+size/4), `{"model":`...), m...), `,"messages":[`...)
		c.headModel, c.headMsgs = model, 0
	}
	for i := c.headMsgs; i < len(msgs); i++ {
		if i > 0 {
			c.head = append(c.head, ',')
		}
		c.head = append(c.head, msgs[i]...)
	}
	c.headMsgs = len(msgs)
}

func toWireTool(t ToolDef) wireTool {
	w := wireTool{Type: "function"}
	w.Function.Name, w.Function.Description = t.Name, t.Description
	w.Function.Parameters = t.Parameters
	if len(w.Function.Parameters) == 0 {
		w.Function.Parameters = json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return w
}

// toolsJSON encodes the tool list, reusing the last encoding when the
// list is unchanged (it is the same every round of a session).
func (c *encodeCache) toolsJSON(defs []ToolDef) (json.RawMessage, error) {
	if len(defs) == 0 {
		return nil, nil
	}
	if sameTools(defs, c.tools) {
		return c.wire, nil
	}
	wire := make([]wireTool, len(defs))
	for i, t := range defs {
		wire[i] = toWireTool(t)
	}
	enc, err := marshal(wire)
	if err != nil {
		return nil, err
	}
	c.tools, c.wire = append([]ToolDef(nil), defs...), enc
	return enc, nil
}

func sameTools(a, b []ToolDef) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Description != b[i].Description || !bytes.Equal(a[i].Parameters, b[i].Parameters) {
			return false
		}
	}
	return true
}
