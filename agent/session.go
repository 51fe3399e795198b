package agent

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/discipline"
)

// ErrBusy is returned by Submit while a task is running.
var ErrBusy = errors.New("keel is still working on the previous task; wait for it or cancel it with Esc")

// Session owns one conversation: its history, plan, totals and the
// goroutine that runs the current task. Consumers read Events.
type Session struct {
	opts Options       // fixed at New
	live *settings     // what /model and /cadence change
	conv *conversation // the history and the plan
	out  *outbox

	mu        sync.Mutex // guards the fields below
	state     State
	cancel    context.CancelFunc
	running   bool
	taskSeq   int
	roundSeq  int
	usage     llm.Usage
	cost      float64
	interSeq  int
	toolTotal int
	defs      []llm.ToolDef // the tools as the model sees them, built once
	// taskDiscipline is the discipline state carried from task to task.
	taskDiscipline discipline.State
	wg             sync.WaitGroup
}

// New makes a session. Options.History and Options.Plan restore a resumed one.
func New(opts Options) *Session {
	opts = opts.withDefaults()
	s := &Session{
		opts:    opts,
		live:    newSettings(opts),
		out:     newOutbox(opts.EventBuffer),
		conv:    newConversation(opts.History, opts.Plan),
		state:   StateIdle,
		taskSeq: opts.TaskSeq,
	}
	s.roundSeq = opts.RoundSeq
	s.opts.Tools = append(slices.Clone(opts.Tools), s.planTool()) // the session owns update_plan
	s.defs = buildToolDefs(s.opts.Tools)
	opts.Recorder.bind(func(text string) { s.out.send(Notice{Text: text}) })
	return s
}

// Events is the channel consumers drain. It stays open for the session's life.
func (s *Session) Events() <-chan Event { return s.out.ch }

// ID is the session's datalog id ("" when the datalog is off).
func (s *Session) ID() string {
	if id := s.opts.Recorder.SessionID(); id != "" {
		return id
	}
	return s.opts.SessionID
}

// Submit starts a task for prompt on a goroutine and returns at once.
// Cancelling ctx (or calling Cancel) stops the task with reason cancelled.
func (s *Session) Submit(ctx context.Context, prompt string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running {
		return ErrBusy
	}
	ctx, cancel := context.WithCancel(ctx)
	s.cancel = cancel
	s.running = true
	s.taskSeq++
	seq := s.taskSeq
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer cancel()
		s.runTask(ctx, seq, prompt)
	}()
	return nil
}

// Cancel stops the running task, if any.
func (s *Session) Cancel() {
	s.mu.Lock()
	cancel := s.cancel
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// Wait blocks until the running task (if any) has ended.
func (s *Session) Wait() { s.wg.Wait() }

// Close cancels any task, waits for it, and releases blocked event sends.
func (s *Session) Close() {
	s.Cancel()
	s.out.close()
	s.wg.Wait()
}

// Running reports whether a task is in progress.
func (s *Session) Running() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running
}

// History returns a copy of the conversation so far.
func (s *Session) History() []llm.Message { return s.conv.History() }

// Plan returns a copy of the current plan, or nil.
func (s *Session) Plan() *Plan { return s.conv.Plan() }

// SetCadence changes the reflection cadence for the rest of the session
// (the TUI's /cadence N). It takes effect from the next round.
func (s *Session) SetCadence(n int) {
	s.live.setCadence(n)
}

// setState records and emits a transition.
func (s *Session) setState(to State, detail string) {
	s.mu.Lock()
	from := s.state
	s.state = to
	s.mu.Unlock()
	if from == to && detail == "" {
		return
	}
	ev := StateChanged{From: from, To: to, Detail: detail, At: s.opts.Now()}
	s.opts.Recorder.transition(ev)
	s.out.send(ev)
}

func (s *Session) appendHistory(msgs ...llm.Message) { s.conv.append(msgs...) }

func (s *Session) now() time.Time { return s.opts.Now() }
