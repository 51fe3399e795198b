package llm

// A tool call streams in pieces, each naming its call by "index". Servers
// differ: some omit the index (Ollama's OpenAI API before 0.5, some
// llama.cpp builds), sending every piece of one call in order, or all
// calls' pieces in one delta by position; some send index 0 for every
// parallel call and tell them apart by a new id; some repeat the id on
// every piece; some split the function's name over pieces, others repeat
// it whole. position finds the call a piece belongs to whatever the
// server did, and joinName builds the name.

// position finds (or starts) the call a tool-call delta belongs to: the
// delta is the pos-th of n in its chunk.
func (a *accumulator) position(t *toolCallDelta, pos, n int) int {
	if a.byIndex == nil {
		a.byIndex, a.byID = map[int]int{}, map[string]int{}
	}
	if t.Index != nil {
		p, ok := a.byIndex[*t.Index]
		// Index 0 reused for every parallel call: a new id wins.
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

// joinName adds a piece of a call's name: a split name is joined, a name
// repeated whole on later pieces is not doubled.
func joinName(have, piece string) string {
	if piece == "" || piece == have {
		return have
	}
	return have + piece
}
