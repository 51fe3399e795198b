package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/keel-dev/keel/tools"
	"sync"
	"time"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llm"
)

// Recorder writes a session to the datalog: one committed record per
// round, committed while the next request is built and before it leaves. A nil *Recorder records
// nothing. An outage (a disk full, a lock) is reported as DatalogHealth
// events, other write failures once as a Notice; the datalog keeps the
// records and retries them, and a task whose records are not saved by its
// end stops with datalog_unavailable.
type Recorder struct {
	db        *datalog.DB
	sessionID string
	notify    func(string)
	// ready is closed once db and sessionID are set (NewRecorderAsync);
	// openErr says why there is no db. Both are read only after ready.
	ready   chan struct{}
	openErr error

	mu          sync.Mutex
	transitions []datalog.StateTransition
	plans       []datalog.PlanSnapshot
	written     int            // history entries already stored
	reset       bool           // the history was replaced (compaction) since the last write
	interAt     map[int][2]int // intervention seq -> (round, index)
	failing     bool           // a write failure was reported and none has succeeded since
	started     *startedTask   // a task not yet written
	noted       int            // the task last noted as the project's last (NoteLastTask)
	inflight    func() error   // the outcome of the last QueueRound; nil when taken
	queued      []func() error // outcomes of other queued writes (hook runs)
}

// NewRecorder records into db under sessionID (from db.StartSession).
// A resumed session passes the number of history entries already stored;
// rewrite makes the first round store the whole history again (a resumed
// history that keel had to repair).
func NewRecorder(db *datalog.DB, sessionID string, alreadyStored int, rewrite bool) *Recorder {
	r := &Recorder{db: db, sessionID: sessionID, written: alreadyStored, interAt: make(map[int][2]int)}
	if rewrite {
		r.written, r.reset = 0, true
	}
	return r
}

// NewRecorderAsync records into the datalog that open returns. open runs
// on its own goroutine, so the first request does not wait for the disk;
// the first write waits for it. When open fails, the error is shown once
// and the session runs without a datalog.
func NewRecorderAsync(open func() (*datalog.DB, string, error)) *Recorder {
	r := &Recorder{interAt: make(map[int][2]int), ready: make(chan struct{})}
	go func() {
		defer close(r.ready)
		r.db, r.sessionID, r.openErr = open()
	}()
	return r
}

// usable waits for an asynchronous open and reports whether there is a
// datalog to write to.
func (r *Recorder) usable() bool {
	if r == nil {
		return false
	}
	if r.ready != nil {
		<-r.ready
		if r.db == nil {
			r.report(r.openErr)
			return false
		}
	}
	return r.db != nil
}

// SessionID is the datalog's id for the session ("" without a datalog).
func (r *Recorder) SessionID() string {
	if !r.usable() {
		return ""
	}
	return r.sessionID
}

// knownID is the session id when the datalog is open already, else "",
// without waiting for an asynchronous open.
func (r *Recorder) knownID() string {
	if r == nil {
		return ""
	}
	if r.ready != nil {
		select {
		case <-r.ready:
		default:
			return ""
		}
	}
	return r.sessionID
}

// Close closes a datalog the recorder opened itself (NewRecorderAsync).
func (r *Recorder) Close() error {
	if r == nil || r.ready == nil || !r.usable() {
		return nil
	}
	return r.db.Close()
}

// bind routes write failures to the session's notices.
func (r *Recorder) bind(notify func(string)) {
	if r != nil {
		r.notify = notify
	}
}

func (r *Recorder) transition(ev StateChanged) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.transitions = append(r.transitions, datalog.StateTransition{From: string(ev.From), To: string(ev.To), Detail: ev.Detail, At: ev.At})
}

func (r *Recorder) plan(p *Plan) {
	if r == nil || p == nil {
		return
	}
	data, _ := json.Marshal(p)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.plans = append(r.plans, datalog.PlanSnapshot{Attempt: p.Attempt, Status: p.Status, Plan: data, At: p.Updated})
}

// taskStarted notes a new task; the datalog hears of it with the task's
// first round, so the first request never waits for the datalog to open.
func (r *Recorder) taskStarted(seq int, prompt string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.started = &startedTask{seq: seq, prompt: prompt}
	r.mu.Unlock()
}

// startedTask is a task the datalog has not been told of yet.
type startedTask struct {
	seq    int
	prompt string
}

// flushStarted tells the datalog of a new task: the session's first prompt,
// or that a later task reopened the session.
func (r *Recorder) flushStarted() {
	r.mu.Lock()
	st := r.started
	r.started = nil
	r.mu.Unlock()
	switch {
	case st == nil:
	case st.seq == 1:
		r.report(r.db.SetFirstPrompt(context.Background(), r.sessionID, st.prompt))
	default:
		r.report(r.db.ReopenSession(context.Background(), r.sessionID))
	}
}

func (r *Recorder) retry(Retrying) {}

// beforeTools makes sure the session row (and the task's first prompt)
// is committed before the round's first tool runs. The first request
// never waits for the datalog; the first tool does, once.
func (r *Recorder) beforeTools(root string, task int) {
	if !r.usable() {
		return
	}
	r.settle()
	r.flushStarted()
	r.mu.Lock()
	note := r.noted != task
	r.noted = task
	r.mu.Unlock()
	if note && root != "" {
		r.report(r.db.NoteLastTask(root, r.sessionID, task)) // for undo, beside the database
	}
}

// intent commits a call with side effects before it runs, so a process
// killed while it runs still shows it ("started, outcome unknown").
func (r *Recorder) intent(round int, call llm.ToolCall, args string, started time.Time) {
	if !r.usable() {
		return
	}
	r.settle()
	r.report(r.db.WriteIntent(context.Background(), datalog.Intent{SessionID: r.sessionID, Round: round,
		CallID: call.ID, Name: call.Name, Arguments: args, Started: started}))
}

// journal commits a file change about to be made (the file journal) and
// returns its row; it waits for the commit. An error means the datalog
// cannot record it.
func (r *Recorder) journal(ctx context.Context, round, task int, callID string, c tools.FileChange) (int64, error) {
	if !r.usable() {
		return 0, r.unusable()
	}
	r.settle()
	fc := datalog.FileChange{Path: c.Path, Existed: c.Existed, Before: c.Before, Mode: c.Mode,
		BeforeSHA256: c.BeforeSHA256, AfterSHA256: c.AfterSHA256, NewDirs: c.NewDirs}
	if len(c.Splices) > 0 {
		fc.Splices, _ = json.Marshal(c.Splices)
	}
	id, err := r.journalRetrying(ctx, datalog.JournalEntry{SessionID: r.sessionID, Round: round, TaskSeq: task, CallID: callID, Change: fc})
	if err != nil {
		r.report(err)
	}
	return id, err
}

// journalWait is how long a file change waits for a datalog that cannot
// save (a lock another process holds, a disk being freed) before keel
// refuses to make it or asks.
const journalWait = 5 * time.Second

// journalRetrying commits e, retrying an outage for up to journalWait.
func (r *Recorder) journalRetrying(ctx context.Context, e datalog.JournalEntry) (int64, error) {
	wctx, cancel := context.WithTimeout(ctx, journalWait)
	defer cancel()
	for backoff := 50 * time.Millisecond; ; backoff = min(2*backoff, time.Second) {
		id, err := r.db.JournalChange(ctx, e)
		var we *datalog.WriteError
		if err == nil || !errors.As(err, &we) {
			return id, err
		}
		t := time.NewTimer(backoff)
		select {
		case <-wctx.Done():
			t.Stop()
			return 0, err
		case <-t.C:
		}
	}
}

// unusable says why there is no datalog to record into.
func (r *Recorder) unusable() error {
	if r.openErr != nil {
		return fmt.Errorf("the datalog could not be opened: %w", r.openErr)
	}
	return errors.New("the datalog is not open")
}

// compacted notes that the history was replaced.
func (r *Recorder) compacted(int) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.reset = true
	r.written = 0
	r.mu.Unlock()
}

// round commits everything the round produced.
func (r *Recorder) round(t *task, resp llm.Response, outs []outcome, fired []Intervention) {
	if !r.usable() {
		return
	}
	r.flushStarted()
	s := t.s
	r.mu.Lock()
	added, total := s.conv.since(r.written) // only what this round added: no per-round copy of the whole history
	rec := datalog.RoundRecord{
		Round:        t.roundRow(resp, s.opts.Prices),
		Messages:     added,
		HistoryReset: r.reset,
		Transitions:  r.transitions,
		Plans:        r.plans,
	}
	r.transitions, r.plans, r.reset = nil, nil, false
	r.written = total
	for i, in := range fired {
		r.interAt[in.Seq] = [2]int{rec.Round.Seq, i}
	}
	r.mu.Unlock()
	rec.Request, rec.Response = resp.RequestBody, resp.ResponseBody
	rec.ToolCalls, rec.FileChanges = toolRows(outs, t.seq)
	rec.DropJournal = s.journal.settle(outs)
	rec.Interventions = interventionRows(fired)
	r.settle()
	wait := r.db.QueueRound(context.Background(), rec)
	r.mu.Lock()
	r.inflight = wait
	r.mu.Unlock()
}

// settle waits until the last round handed to the datalog is committed
// to SQLite and reports how it went. The next request waits here after
// it is built (llm.Request.BeforeSend), so a round is committed before
// the next one starts, and building the request overlaps the commit.
func (r *Recorder) settle() {
	if r == nil {
		return
	}
	r.mu.Lock()
	wait := r.inflight
	r.inflight = nil
	r.mu.Unlock()
	if wait != nil {
		r.report(wait())
	}
	r.settleQueued()
}

// reply attaches the model's answer to a stored intervention.
func (r *Recorder) reply(seq int, text string) {
	if !r.usable() {
		return
	}
	r.mu.Lock()
	at, ok := r.interAt[seq]
	r.mu.Unlock()
	if ok {
		r.settle()
		r.report(r.db.UpdateInterventionReply(context.Background(), r.sessionID, at[0], at[1], text))
	}
}

func (r *Recorder) taskEnded(s *Session, st stop, _ TaskSummary) {
	if !r.usable() {
		return
	}
	r.settle()
	r.flushStarted()
	s.mu.Lock()
	u, cost, rounds, calls := s.usage, s.cost, s.roundSeq, s.toolTotal
	s.mu.Unlock()
	totals := datalog.Totals{Rounds: rounds, ToolCalls: calls, TokensIn: u.PromptTokens, TokensOut: u.CompletionTokens, TokensCached: u.CachedTokens, Cost: cost}
	r.mu.Lock()
	transitions, plans := r.transitions, r.plans // the last transition has no round after it
	r.transitions, r.plans = nil, nil
	r.mu.Unlock()
	r.report(r.db.EndTask(context.Background(), r.sessionID, rounds, transitions, plans, string(st.reason), totals))
}

// report shows a write failure once per outage; the datalog keeps the
// records and retries them.
func (r *Recorder) report(err error) {
	r.mu.Lock()
	if err == nil {
		r.failing = false
		r.mu.Unlock()
		return
	}
	first := !r.failing
	r.failing = true
	notify := r.notify
	r.mu.Unlock()
	if !first || notify == nil {
		return
	}
	var we *datalog.WriteError
	if errors.As(err, &we) {
		return // an outage: DatalogHealth tells of it (watchHealth)
	}
	if err == r.openErr {
		notify(err.Error())
		return
	}
	notify(fmt.Sprintf("datalog write failed: %v", err))
}

// roundRow is the datalog row of the task's current round.
func (t *task) roundRow(resp llm.Response, prices *Prices) datalog.Round {
	return datalog.Round{
		SessionID: t.s.ID(), Seq: t.s.currentRound(), TaskSeq: t.seq,
		RequestMessages: t.inFlight.reqMessages, RequestTokens: t.compaction.lastPrompt,
		FirstToken: resp.FirstToken, Duration: resp.Duration, FinishReason: resp.FinishReason,
		TokensIn: resp.Usage.PromptTokens, TokensOut: resp.Usage.CompletionTokens, TokensCached: resp.Usage.CachedTokens,
		Cost: prices.Cost(resp.Usage), Retries: t.inFlight.roundRetries, Started: t.inFlight.roundStarted,
	}
}

func toolRows(outs []outcome, taskSeq int) ([]datalog.ToolCall, []datalog.FileChange) {
	calls := make([]datalog.ToolCall, 0, len(outs))
	var changes []datalog.FileChange
	for i, o := range outs {
		calls = append(calls, datalog.ToolCall{
			Index: i, CallID: o.call.ID, Name: o.call.Name, Arguments: o.call.Arguments,
			Result: o.result.Output, ResultSize: len(o.result.Output), IsError: o.result.IsError,
			Duration: o.duration, Permission: o.decision, DecidedBy: o.decidedBy, Verified: o.verified,
			Progress: progressJSON(o.progress.finish()),
		})
		for _, c := range o.result.Changes {
			fc := datalog.FileChange{TaskSeq: taskSeq, ToolCallID: o.call.ID, Path: c.Path, JournalID: c.JournalID,
				Existed: c.Existed, Before: c.Before, After: c.After, Mode: c.Mode, ByCommand: c.ByCommand}
			if len(c.Splices) > 0 { // a large file: the replaced pieces and the hashes, not two copies
				fc.Splices, _ = json.Marshal(c.Splices)
				fc.BeforeSHA256, fc.AfterSHA256 = c.BeforeSHA256, c.AfterSHA256
			}
			if c.AfterNotKept { // a large write: the hash of what it wrote, not a copy
				fc.AfterNotKept, fc.AfterSHA256 = true, c.AfterSHA256
			}
			changes = append(changes, fc)
		}
	}
	return calls, changes
}

func interventionRows(fired []Intervention) []datalog.Intervention {
	rows := make([]datalog.Intervention, 0, len(fired))
	for i, in := range fired {
		figs, _ := json.Marshal(in.Figures)
		rows = append(rows, datalog.Intervention{Index: i, Kind: in.Kind, AtToolCall: in.AtToolCall, Figures: figs, Message: in.Message,
			Why: in.Why, Action: in.Action})
	}
	return rows
}

// job records a background job's start or end.
func (r *Recorder) job(j tools.JobInfo) {
	if !r.usable() {
		return
	}
	rec := datalog.Job{SessionID: r.sessionID, ID: j.ID, Command: j.Command, Workdir: j.Workdir, Started: j.Started,
		ExitCode: j.ExitCode, StoppedBy: j.StoppedBy, OutputBytes: j.OutputBytes}
	if !j.Running {
		rec.Ended = &j.Ended
	}
	r.report(r.db.WriteJob(context.Background(), rec))
}
