package agent

import (
	"sync"

	"github.com/keel-dev/keel/agent/llm"
)

// conversation is a session's history and plan: the state every part of
// the loop reads, owned here behind its own lock. Nothing else touches
// these fields; the session adds the events and datalog records that a
// change calls for.
type conversation struct {
	mu        sync.Mutex
	history   []llm.Message
	histBytes int // the history's size as estimateTokens counts it, kept as it grows
	images    int // images in the history: requests with none take the fast path
	plan      *Plan
	// planEvents are failed plans waiting for the task to turn them into
	// replanning messages (update_plan may run beside other read-only tools).
	planEvents []planFailure
	planSeq    int // bumped by every plan update
	// failedAttempts are the task's failed plans; a replan must differ
	// from each in its strategy and its set of steps.
	failedAttempts []attemptRecord
}

func newConversation(history []llm.Message, plan *Plan) *conversation {
	h := append([]llm.Message(nil), history...)
	return &conversation{history: h, histBytes: historyBytes(h), images: countImages(h), plan: plan.clone()}
}

// History returns a copy of the conversation so far.
func (c *conversation) History() []llm.Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]llm.Message(nil), c.history...)
}

// view is the history as it is now, without a copy: appends never write
// into it (its capacity ends at its length).
func (c *conversation) view() []llm.Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.history[:len(c.history):len(c.history)]
}

// since copies the history from index i on, and returns its length.
func (c *conversation) since(i int) ([]llm.Message, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	i = min(i, len(c.history))
	return append([]llm.Message(nil), c.history[i:]...), len(c.history)
}

func (c *conversation) append(msgs ...llm.Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.history = append(c.history, msgs...)
	c.histBytes += historyBytes(msgs)
	c.images += countImages(msgs)
}

// hasImages reports whether any message holds an image.
func (c *conversation) hasImages() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.images > 0
}

// replace swaps the history for kept (compaction).
func (c *conversation) replace(kept []llm.Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.history, c.histBytes, c.images = kept, historyBytes(kept), countImages(kept)
}

// closeDangling gives every call of the last assistant message that has
// no result the result text.
func (c *conversation) closeDangling(text string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.history = closeDangling(c.history, text)
	c.histBytes = historyBytes(c.history)
}

// size is the history's size in bytes, as estimateTokens counts it.
func (c *conversation) size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.histBytes
}

// lastAssistantText is the model's latest text from history index from
// on, for a partial result.
func (c *conversation) lastAssistantText(from int) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := len(c.history) - 1; i >= from && i >= 0; i-- {
		if m := c.history[i]; m.Role == llm.RoleAssistant && m.Content != "" {
			return m.Content
		}
	}
	return ""
}

// takePlanEvents hands the waiting plan failures to the task.
func (c *conversation) takePlanEvents() []planFailure {
	c.mu.Lock()
	defer c.mu.Unlock()
	ev := c.planEvents
	c.planEvents = nil
	return ev
}

// startTask drops plan failures of an earlier, cancelled task and returns
// the plan version the new task starts from.
func (c *conversation) startTask() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.planEvents, c.failedAttempts = nil, nil
	return c.planSeq
}
