package transcript

import (
	"fmt"
	"time"
)

// clock is how long running calls have run, for "running 12s" on their
// row. It moves only with the spinner's ticks (Tick), which run only
// while something runs: an idle transcript has no timer, and a view with
// no tick since a call started shows no time (goldens stay stable).
type clock struct {
	now  time.Time       // the last tick
	held map[string]bool // calls waiting for the user's permission: their time does not count yet
}

// Tick moves the clock to at (the spinner's tick).
func (t *Model) Tick(at time.Time) { t.clock.now = at }

// HoldClock stops counting a call's time while the user is asked about
// it (the permission dialog); ResumeClock starts it afresh once answered.
func (t *Model) HoldClock(callID string) {
	if t.clock.held == nil {
		t.clock.held = map[string]bool{}
	}
	t.clock.held[callID] = true
	if e := t.live.tools[callID]; e != nil {
		e.tool.started = time.Time{}
	}
}

// ResumeClock counts a call's time from at: the user allowed it.
func (t *Model) ResumeClock(callID string, at time.Time) {
	delete(t.clock.held, callID)
	if e := t.live.tools[callID]; e != nil {
		e.tool.started = at
	}
}

// startedAt is when a call that starts at "at" begins to count: never
// while it waits for the user.
func (t *Model) startedAt(callID string, at time.Time) time.Time {
	if t.clock.held[callID] {
		return time.Time{}
	}
	return at
}

// elapsed is a running call's "running 12s", "" before its first second
// or while it has no start.
func (r *renderer) elapsed(c *toolCall) string {
	if c.started.IsZero() || r.now.Before(c.started.Add(time.Second)) {
		return ""
	}
	d := r.now.Sub(c.started).Truncate(time.Second)
	if d < time.Minute {
		return fmt.Sprintf("running %ds", int(d.Seconds()))
	}
	return fmt.Sprintf("running %dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}
