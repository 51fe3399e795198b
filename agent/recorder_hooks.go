package agent

import (
	"context"

	"github.com/keel-dev/keel/agent/datalog"
)

// hookRan stores a hook's run. The write is queued, not waited for: the
// next settle (before the next request, or the task's end) reports how
// it went.
func (r *Recorder) hookRan(round int, ev HookRan) {
	if !r.usable() {
		return
	}
	wait := r.db.QueueHookRun(context.Background(), datalog.HookRun{SessionID: r.sessionID, Round: round, Event: string(ev.Event),
		Matcher: ev.Matcher, Command: ev.Command, Tool: ev.Tool, CallID: ev.CallID, ExitCode: ev.ExitCode, Duration: ev.Duration,
		TimedOut: ev.TimedOut, Decision: ev.Decision, Reason: ev.Reason, At: r.db.Now()})
	r.mu.Lock()
	r.queued = append(r.queued, wait)
	r.mu.Unlock()
}

// settleQueued waits for the writes queued beside the rounds.
func (r *Recorder) settleQueued() {
	r.mu.Lock()
	waits := r.queued
	r.queued = nil
	r.mu.Unlock()
	for _, w := range waits {
		r.report(w())
	}
}

// child starts a subagent's session in the same datalog, linked to its
// parent; nil (nothing recorded) without a datalog.
func (r *Recorder) child(s datalog.Session) *Recorder {
	if !r.usable() {
		return nil
	}
	r.settle() // the parent's row and round are in before the child's
	id, err := r.db.StartSession(context.Background(), s)
	if err != nil && id == "" {
		r.report(err)
		return nil
	}
	return NewRecorder(r.db, id, 0, false)
}
