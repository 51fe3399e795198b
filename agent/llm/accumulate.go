package llm

import "strings"

// accumulator folds stream chunks into a Response and reports each
// increment to onDelta. Which call a tool-call delta belongs to is
// quirk_tool_call_index.go's decision.
type accumulator struct {
	onDelta   func(Delta)
	content   strings.Builder
	reasoning strings.Builder
	calls     []*callAcc
	byIndex   map[int]int    // wire index -> position in calls
	byID      map[string]int // call id -> position in calls
	current   int            // position of the call that last started, -1 before any
	finish    string
	usage     Usage
	usageSeen bool
	scratch   chunk
}

type callAcc struct {
	id, name string
	args     pieces
}

// pieces collects a call's argument text as it streams in, joined once at
// the end into a string of its exact size: a builder growing to a 50 MB
// write_file content copied it over and over (~5x the content in garbage)
// and ended with up to a quarter of it unused (issue 26).
type pieces struct {
	parts []string
	n     int
}

func (p *pieces) add(s string) {
	if s != "" {
		p.parts, p.n = append(p.parts, s), p.n+len(s)
	}
}

// String joins the pieces.
func (p *pieces) String() string {
	if len(p.parts) == 1 {
		return p.parts[0]
	}
	var b strings.Builder
	b.Grow(p.n)
	for _, s := range p.parts {
		b.WriteString(s)
	}
	return b.String()
}

func newAccumulator(onDelta func(Delta)) *accumulator {
	return &accumulator{onDelta: onDelta, current: -1}
}

// feed decodes one data payload and folds it in; an error event inside
// the stream is returned as the error it reports.
func (a *accumulator) feed(raw []byte) error {
	if err := decodeChunk(raw, &a.scratch); err != nil {
		return err
	}
	if err := a.scratch.streamError(); err != nil {
		return err
	}
	a.add(&a.scratch)
	return nil
}

// add folds one decoded chunk in. Choices other than the first are ignored
// (keel never asks for n > 1).
func (a *accumulator) add(c *chunk) {
	if c.Usage != nil {
		a.usage, a.usageSeen = c.Usage.usage(), true
	}
	for i := range c.Choices {
		ch := &c.Choices[i]
		if ch.Index != 0 {
			continue
		}
		a.addDelta(&ch.Delta)
		if ch.FinishReason != "" {
			a.finish = ch.FinishReason
		}
	}
}

func (a *accumulator) addDelta(d *chunkDelta) {
	if r := d.reasoningText(); r != "" {
		a.reasoning.WriteString(r)
		a.emit(Delta{Kind: DeltaReasoning, Text: r})
	}
	if d.Content != "" {
		a.content.WriteString(d.Content)
		a.emit(Delta{Kind: DeltaText, Text: d.Content})
	}
	for j := range d.ToolCalls {
		a.addCall(&d.ToolCalls[j], j, len(d.ToolCalls))
	}
}

func (a *accumulator) addCall(t *toolCallDelta, pos, n int) {
	p := a.position(t, pos, n)
	c := a.calls[p]
	if t.ID != "" && c.id == "" {
		c.id = t.ID
		a.byID[t.ID] = p
	}
	c.name = joinName(c.name, t.Function.Name)
	c.args.add(t.Function.Arguments)
	if t.Function.Name != "" || t.Function.Arguments != "" {
		a.emit(Delta{Kind: DeltaToolCall, Text: t.Function.Arguments, ToolIndex: p, ToolName: c.name})
	}
}

// start begins a new call and returns its position.
func (a *accumulator) start() int {
	a.calls = append(a.calls, &callAcc{})
	a.current = len(a.calls) - 1
	return a.current
}

func (a *accumulator) emit(d Delta) {
	if a.onDelta != nil {
		a.onDelta(d)
	}
}

// response returns what has been accumulated.
func (a *accumulator) response() Response {
	r := Response{
		Content:      a.content.String(),
		Reasoning:    a.reasoning.String(),
		FinishReason: a.finish,
		Usage:        a.usage,
		UsageKnown:   a.usageSeen,
	}
	for i, c := range a.calls {
		r.ToolCalls = append(r.ToolCalls, ToolCall{ID: callID(c.id, i), Name: c.name, Arguments: c.args.String()})
	}
	return r
}
