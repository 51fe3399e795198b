package agent

import (
	"fmt"
	"sync"
	"time"

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
	plan      *Plan
	// planEvents are failed plans waiting for the task to turn them into
	// replanning messages (update_plan may run beside other read-only tools).
	planEvents []planFailure
	planSeq    int // bumped by every plan update
}

func newConversation(history []llm.Message, plan *Plan) *conversation {
	h := append([]llm.Message(nil), history...)
	return &conversation{history: h, histBytes: historyBytes(h), plan: plan.clone()}
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
}

// replace swaps the history for kept (compaction).
func (c *conversation) replace(kept []llm.Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.history, c.histBytes = kept, historyBytes(kept)
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

// Plan returns a copy of the current plan, or nil.
func (c *conversation) Plan() *Plan {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.plan.clone()
}

// planVersion is bumped by every update_plan.
func (c *conversation) planVersion() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.planSeq
}

// update applies an update_plan call and returns the new plan and the
// tool's reply. A step newly marked failed supersedes the plan: the
// attempt goes up and a replanning message waits for the task.
func (c *conversation) update(u PlanUpdate, now time.Time) (*Plan, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	prev := c.plan.clone()
	next := mergePlan(prev, u, now)
	failed := newlyFailed(prev, next)
	reply := fmt.Sprintf("plan updated: %d steps, %s", len(next.Steps), countLine(next))
	if failed != nil && next.Status == PlanActive {
		next.Status = PlanSuperseded
		c.planEvents = append(c.planEvents, planFailure{step: *failed, attempt: next.Attempt})
		reply += fmt.Sprintf("; step %q failed, so this plan is superseded: make a new plan with a different approach (attempt %d)", failed.Title, next.Attempt+1)
	}
	c.plan = next
	c.planSeq++
	return next.clone(), reply
}

// markFailed marks the plan failed (plan_failed), unless it is already
// completed or failed; it returns the new plan, or nil when unchanged.
func (c *conversation) markFailed(now time.Time) *Plan {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.plan == nil || c.plan.Status == PlanCompleted || c.plan.Status == PlanFailed {
		return nil
	}
	next := c.plan.clone()
	next.Status, next.Updated = PlanFailed, now
	c.plan = next
	return next.clone()
}

// failActive marks the active plan's active step failed because of why,
// superseding the plan; it returns the new plan, or nil when there is no
// active step.
func (c *conversation) failActive(why string, now time.Time) *Plan {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.plan == nil || c.plan.Status != PlanActive {
		return nil
	}
	next := c.plan.clone()
	for i, st := range next.Steps {
		if st.Status != StepActive {
			continue
		}
		next.Steps[i].Status, next.Steps[i].Note = StepFailed, "keel's guard stopped it: "+why
		next.Status, next.Updated = PlanSuperseded, now
		c.planEvents = append(c.planEvents, planFailure{step: next.Steps[i], attempt: next.Attempt})
		c.plan = next
		return next.clone()
	}
	return nil
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
	c.planEvents = nil
	return c.planSeq
}
