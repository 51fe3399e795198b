package agent

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/keel-dev/keel/tools"
)

// The file journal's agent side. The session's workspace journals every
// write and edit through fileJournal before the file changes: a pending
// datalog row with the file as it was, committed first. When the datalog
// cannot record it, the change would be one undo cannot restore, so keel
// does not make it: the TUI asks (RecordAsker), headless stops the task
// with datalog_unavailable.

// UnrecordedChange is a file change the datalog cannot record.
type UnrecordedChange struct {
	Tool, Args string // the call
	Path       string
	Err        string // why the datalog cannot record it
}

// RecordAsker asks the user whether to make a change the datalog cannot
// record, so undo could not restore it. The TUI implements it; nil
// (headless): the change is not made and the task stops.
type RecordAsker interface {
	AskUnrecorded(ctx context.Context, c UnrecordedChange) (bool, error)
}

// ErrNotRecorded is wrapped by the journal's refusal.
var ErrNotRecorded = errors.New("keel's datalog cannot record the file as it is, so undo could not restore it")

// journalCallKey carries the call a tool runs for, for the journal.
type journalCallKey struct{}

// callRef is the call a tool runs for and its task.
type callRef struct {
	t    *task
	call string
	name string
	args string
}

// fileJournal is the session's tools.Journal.
type fileJournal struct {
	s *Session

	mu  sync.Mutex
	ids map[string][]int64 // journal rows by call id, until the round is recorded
}

var _ tools.Journal = (*fileJournal)(nil)

// Record commits c as it is before the change, or refuses. The call's
// own session records it: a subagent's tools are the parent's, and so is
// their workspace, whose journal is the parent's.
func (j *fileJournal) Record(ctx context.Context, c tools.FileChange) (int64, error) {
	ref, _ := ctx.Value(journalCallKey{}).(callRef)
	s, task := j.s, 0
	if ref.t != nil {
		s, task = ref.t.s, ref.t.seq
	}
	r := s.opts.Recorder
	if r == nil {
		return 0, nil // no datalog: no undo to keep
	}
	id, err := r.journal(ctx, s.currentRound(), task, ref.call, c)
	if err == nil {
		s.journal.mu.Lock()
		s.journal.ids[ref.call] = append(s.journal.ids[ref.call], id)
		s.journal.mu.Unlock()
		return id, nil
	}
	return 0, s.journal.unrecorded(ctx, ref, c.Path, err)
}

// unrecorded decides about a change the datalog could not record: the
// user may let it through (it cannot be undone); nobody to ask stops the
// task.
func (j *fileJournal) unrecorded(ctx context.Context, ref callRef, path string, err error) error {
	s := j.s
	if s.opts.RecordAsker == nil {
		if ref.t != nil {
			ref.t.datalogStop.CompareAndSwap(nil, &stop{reason: StopDatalog,
				message: fmt.Sprintf("stopped before changing %s: %v; %s", path, err, datalogAdvice)})
		}
		return fmt.Errorf("%w (%v); keel stopped the task", ErrNotRecorded, err)
	}
	ok, askErr := s.opts.RecordAsker.AskUnrecorded(ctx, UnrecordedChange{Tool: ref.name, Args: ref.args, Path: path, Err: err.Error()})
	if askErr != nil || !ok {
		return fmt.Errorf("%w (%v); the user chose not to make the change", ErrNotRecorded, err)
	}
	s.out.send(Notice{Text: fmt.Sprintf("changing %s without a record: keel undo will not restore it", path)})
	return nil
}

// datalogAdvice is what to do when the datalog cannot record.
const datalogAdvice = "free disk space or fix the datalog's permissions, then run the task again (keel -c resumes it)"

// settle hands a call's journal rows to its round: those its result does
// not carry changed nothing and are dropped.
func (j *fileJournal) settle(outs []outcome) []int64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	var drop []int64
	for _, o := range outs {
		kept := map[int64]bool{}
		for _, c := range o.result.Changes {
			kept[c.JournalID] = true
		}
		for _, id := range j.ids[o.call.ID] {
			if !kept[id] {
				drop = append(drop, id)
			}
		}
		delete(j.ids, o.call.ID)
	}
	return drop
}

// withCall tells the journal which call a tool runs for.
func withCall(ctx context.Context, t *task, o *outcome) context.Context {
	return context.WithValue(ctx, journalCallKey{}, callRef{t: t, call: o.call.ID, name: o.call.Name, args: o.call.Arguments})
}
