package llm

import (
	"strconv"
	"strings"
)

// accumulator folds stream chunks into a Response and reports each
// increment to onDelta. Tool calls are keyed by the wire index; when a
// server omits it, by the call id, and failing that by position.
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
	any       bool // a delta was emitted
	scratch   chunk
}

type callAcc struct {
	id, name string
	args     strings.Builder
}

func newAccumulator(onDelta func(Delta)) *accumulator {
	return &accumulator{onDelta: onDelta, current: -1}
}

// feed decodes one SSE data payload and folds it in.
func (a *accumulator) feed(raw []byte) error {
	if err := decodeChunk(raw, &a.scratch); err != nil {
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
	// vLLM in transition sends both fields with the same text: take one.
	r := d.ReasoningContent
	if r == "" {
		r = d.Reasoning
	}
	if r != "" {
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
	name := t.Function.Name
	if name != "" && name != c.name {
		c.name += name // some servers split the name; repeats are ignored
	}
	c.args.WriteString(t.Function.Arguments)
	if name != "" || t.Function.Arguments != "" {
		a.emit(Delta{Kind: DeltaToolCall, Text: t.Function.Arguments, ToolIndex: p, ToolName: c.name})
	}
}

// position finds (or starts) the call a tool-call delta belongs to.
func (a *accumulator) position(t *toolCallDelta, pos, n int) int {
	if a.byIndex == nil {
		a.byIndex, a.byID = map[int]int{}, map[string]int{}
	}
	if t.Index != nil {
		p, ok := a.byIndex[*t.Index]
		// Some servers reuse index 0 for every parallel call: a new id wins.
		if ok && (t.ID == "" || a.calls[p].id == "" || a.calls[p].id == t.ID) {
			return p
		}
		p = a.start()
		a.byIndex[*t.Index] = p
		return p
	}
	if t.ID != "" {
		if p, ok := a.byID[t.ID]; ok {
			return p
		}
		return a.start()
	}
	// Neither index nor id: a continuation. With one call per delta it
	// belongs to the call in progress; with several, go by position.
	if n > 1 && pos < len(a.calls) {
		return pos
	}
	if a.current >= 0 {
		return a.current
	}
	return a.start()
}

func (a *accumulator) start() int {
	a.calls = append(a.calls, &callAcc{})
	a.current = len(a.calls) - 1
	return a.current
}

func (a *accumulator) emit(d Delta) {
	a.any = true
	if a.onDelta != nil {
		a.onDelta(d)
	}
}

// response returns what has been accumulated. Calls without an id get a
// generated one so tool results can still refer to them.
func (a *accumulator) response() Response {
	r := Response{
		Content:      a.content.String(),
		Reasoning:    a.reasoning.String(),
		FinishReason: a.finish,
		Usage:        a.usage,
		UsageKnown:   a.usageSeen,
	}
	for i, c := range a.calls {
		id := c.id
		if id == "" {
			id = "call_keel_" + strconv.Itoa(i)
		}
		r.ToolCalls = append(r.ToolCalls, ToolCall{ID: id, Name: c.name, Arguments: c.args.String()})
	}
	return r
}
