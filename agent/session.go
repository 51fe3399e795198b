package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/discipline"
	"github.com/keel-dev/keel/tools"
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

	reflected reflections // the round's reflect call, for the task
	mem       *memory     // the working memory (the note tool)
	journal   *fileJournal

	mu     sync.Mutex // guards the fields below
	state  State
	resume State // the state a wait (compacting, retrying) returns to
	// internalErrors counts keel's own mistakes (invalid transitions).
	internalErrors int
	// forceCheckpoint: /reflect asked for a checkpoint after this round.
	forceCheckpoint bool
	cancel          context.CancelFunc
	running         bool
	taskSeq         int
	roundSeq        int
	usage           llm.Usage
	cost            float64
	interSeq        int
	toolTotal       int
	defs            []llm.ToolDef // the tools as the model sees them, built once
	world           *worldWatch   // the workspace check; the task goroutine's only
	// taskDiscipline is the discipline state carried from task to task.
	taskDiscipline discipline.State
	wg             sync.WaitGroup
	// startHooks and endHooks: SessionStart and SessionEnd ran; bg waits
	// for Notification hooks, which run beside the question.
	startHooks, endHooks atomic.Bool
	bg                   sync.WaitGroup
	// childSlots holds a token per running subagent (Subagents.MaxParallel);
	// children are what finished ones added, for the running task.
	childSlots chan struct{}
	children   childTotals
}

// New makes a session. Options.History and Options.Plan restore a resumed one.
func New(opts Options) *Session {
	opts = opts.withDefaults()
	s := &Session{
		opts:    opts,
		live:    newSettings(opts),
		out:     newOutbox(opts.EventBuffer, opts.Observer),
		conv:    newConversation(opts.History, opts.Plan),
		mem:     newMemory(opts.NotesMax, opts.Notes),
		state:   StateIdle,
		taskSeq: opts.TaskSeq,
	}
	s.roundSeq = opts.RoundSeq
	s.opts.Tools = append(slices.Clone(opts.Tools), s.planTool()) // the session owns update_plan
	if opts.StructuredReflection {
		s.opts.Tools = append(s.opts.Tools, s.reflectTool())
	}
	if opts.NotesMax > 0 {
		s.opts.Tools = append(s.opts.Tools, s.noteTool())
	}
	if opts.offersTask() {
		s.childSlots = make(chan struct{}, opts.Subagents.MaxParallel)
		s.opts.Tools = append(s.opts.Tools, s.taskTool())
	}
	s.defs = buildToolDefs(s.opts.Tools)
	s.world = newWorldWatch(opts.Workdir)
	s.journal = &fileJournal{s: s, ids: map[string][]int64{}}
	if opts.Workspace != nil {
		opts.Workspace.SetJournal(s.journal)
	}
	opts.Recorder.bind(func(text string) { s.out.send(Notice{Text: text}) })
	opts.Recorder.watchHealth(s.out.send, s.out.done)
	if opts.Jobs != nil {
		opts.Jobs.Notify(s.jobChanged)
	}
	return s
}

// jobChanged reports a job's start or end: an event and a datalog row.
func (s *Session) jobChanged(j tools.JobInfo) {
	s.opts.Recorder.job(j)
	s.out.send(JobChanged{Job: j, Running: s.opts.Jobs.Running()})
}

// Jobs lists the session's background jobs, oldest first (none without
// Options.Jobs).
func (s *Session) Jobs() []tools.JobInfo {
	if s.opts.Jobs == nil {
		return nil
	}
	return s.opts.Jobs.List()
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

// KnownID is ID without waiting: "" while a datalog opened in the
// background is not open yet (telemetry asks on the agent's goroutine).
func (s *Session) KnownID() string {
	if id := s.opts.Recorder.knownID(); id != "" {
		return id
	}
	return s.opts.SessionID
}

// Submit starts a task for prompt on a goroutine and returns at once.
// Cancelling ctx (or calling Cancel) stops the task with reason cancelled.
func (s *Session) Submit(ctx context.Context, prompt string) error {
	return s.SubmitImages(ctx, prompt, nil)
}

// SubmitImages is Submit with images attached to the prompt (pasted, or
// @file.png). A model that does not accept images refuses them with a
// *NoImagesError before anything runs.
func (s *Session) SubmitImages(ctx context.Context, prompt string, images []tools.Image) error {
	if len(images) > 0 && !s.AcceptsImages() {
		_, model, _ := s.live.current()
		return &NoImagesError{Model: model}
	}
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
		s.runTask(ctx, seq, prompt, images)
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

// Close cancels any task, waits for it, runs the SessionEnd hooks unless
// End did, and releases blocked event sends.
func (s *Session) Close() {
	s.Cancel()
	s.out.close() // nobody reads events from here on: the jobs' ends only reach the datalog
	if s.opts.Jobs != nil {
		s.opts.Jobs.StopAll() // their process trees die with the session
	}
	s.wg.Wait()
	s.bg.Wait()
	s.End(context.Background(), "exit") // its events are dropped; its runs are recorded
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

// setState records and emits a transition, checked against the table
// (statemachine.go). Staying in a state is no transition. A transition
// the table lacks still happens, and is an internal error.
func (s *Session) setState(to State, detail string) {
	s.mu.Lock()
	from := s.state
	if from == to {
		s.mu.Unlock()
		return
	}
	s.state = to
	if !to.wait() {
		s.resume = to
	}
	s.mu.Unlock()
	if !ValidTransition(from, to) {
		s.internalError(fmt.Sprintf("invalid state transition %s → %s (%s)", from, to, detail))
	}
	ev := StateChanged{From: from, To: to, Detail: detail, At: s.opts.Now()}
	s.opts.Recorder.transition(ev)
	s.out.send(ev)
}

// resumeState returns from one of keel's waits (compacting, retrying) to
// the state it interrupted.
func (s *Session) resumeState(detail string) {
	s.mu.Lock()
	back := s.resume
	s.mu.Unlock()
	s.setState(back, detail)
}

// currentState is the state the session is in.
func (s *Session) currentState() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

// internalError reports keel's own mistake: an event, a datalog row, the
// session's count, and the Options hook (tests fail on it).
func (s *Session) internalError(what string) {
	s.mu.Lock()
	s.internalErrors++
	s.mu.Unlock()
	s.opts.Recorder.transition(StateChanged{From: s.currentState(), To: s.currentState(), Detail: "internal error: " + what, At: s.opts.Now()})
	if f := s.opts.OnInternalError; f != nil {
		f(what)
	}
	s.out.send(InternalError{What: what})
}

// InternalErrors is how many internal errors the session has seen.
func (s *Session) InternalErrors() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.internalErrors
}

func (s *Session) appendHistory(msgs ...llm.Message) { s.conv.append(msgs...) }

func (s *Session) now() time.Time { return s.opts.Now() }
