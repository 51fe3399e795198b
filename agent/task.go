package agent

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/discipline"
	"github.com/keel-dev/keel/tools"
)

// task is one user prompt being worked on: the counters its limits and
// discipline look at. It lives on the task goroutine only.
type task struct {
	s           *Session
	seq         int
	prompt      string
	images      []tools.Image // attached to the prompt
	started     time.Time
	limits      taskLimits      // what max_turns, max_tool_calls and token_budget count
	compaction  taskCompaction  // compactions and the sizes that decide them
	inFlight    taskRound       // the round in flight
	checkpoints taskCheckpoints // messages for the next request and the decision they came from
	plan        taskPlan        // failed plans and the plan's confirmation
	discipline  discipline.State
	outside     []string // files the workspace check saw change outside keel before this round
	continued   bool     // the one "continue" after finish_reason length was used
	// stopHookActive: a Stop hook already sent the model back once (the
	// hook reads it as stop_hook_active, to let the task end).
	stopHookActive bool
	stopIdle       stopIdle // Stop blocks with no tool call between them
	histStart      int      // the history's length when the task began
	result         string
	Interventions  []Intervention
	Denials        []Denial
	reflections    []Reflection  // the model's reflections, for the task's lesson
	reqMessages    []llm.Message // the last request's messages, its slice reused
	// datalogStop is set when the datalog could not record a change and
	// nobody could let it through (headless): the task stops after the round.
	datalogStop atomic.Pointer[stop]
}

// taskLimits are the figures the task's limits are checked against.
type taskLimits struct {
	rounds       int
	toolCalls    int // calls made: run, refused or answered without running, but not skipped by max_tool_calls
	skipped      int // calls of the model's that max_tool_calls left unrun
	reflectCalls int // of toolCalls, the reflect calls (workCalls leaves them out)
	usage        llm.Usage
	apiTime      time.Duration // waiting on the model, retries included
}

// taskCompaction tracks compaction within the task.
type taskCompaction struct {
	compactions int
	ctxRetries  int  // requests refused for context length and retried after compacting
	compacted   bool // a compaction happened since the last round summary
	lastPrompt  int  // prompt tokens of the last request
	estAtLast   int  // our own estimate of the last request, to measure what was added since
	doubted     bool // the server's usage was far below the estimate (said once a task)
}

// taskRound is what the current round has done so far.
type taskRound struct {
	reqMessages  int       // messages in the request
	roundRetries int       // provider retries
	roundStarted time.Time // when the request left
	retried      bool      // a retry is waiting; its first delta returns the state to thinking
}

// taskCheckpoints are the interventions waiting to reach the model.
type taskCheckpoints struct {
	pending    []string            // messages injected before the next request
	awaiting   []int               // seqs of checkpoints waiting for the model's answer
	answering  []int               // seqs the round's reflect call answers
	decompose  string              // why keel asked for sub-steps this round ("" when it did not)
	fired      string              // why the round's checkpoint fired ("" when none did)
	unanswered int                 // checkpoints the model did not answer with reflect
	decision   discipline.Decision // the last round's, until applied
}

// taskPlan is the task's side of the plan.
type taskPlan struct {
	failedPlans    []string    // failed steps of this task's superseded plans
	planSeqAtStart int         // the session's plan version when the task began
	planConfirmed  bool        // the user approved this task's plan (plan.confirm)
	cancelAsked    atomic.Bool // the user cancelled the task from the plan dialog
	unconfirmed    atomic.Bool // headless --confirm-plan refused the plan
}

// Denial is a tool call the permission gate (or a hook) refused.
type Denial struct {
	Tool   string `json:"tool"`
	CallID string `json:"call_id"`
	Args   string `json:"args"` // the call's raw JSON arguments
	Reason string `json:"reason"`
}

// stop is how a task ends: a reason, a one-sentence message and, for
// provider errors, the error.
type stop struct {
	reason  StopReason
	message string
	err     error
}

func (s *Session) runTask(ctx context.Context, seq int, prompt string, images []tools.Image) {
	t := &task{s: s, seq: seq, prompt: prompt, images: images, started: s.now()}
	t.plan.planSeqAtStart = s.conv.startTask() // failures of an earlier, cancelled task are not this task's
	s.mu.Lock()
	t.discipline = discipline.NewTask(s.taskDiscipline)
	s.mu.Unlock()
	s.opts.Recorder.taskStarted(seq, prompt)
	s.out.send(TaskStarted{Seq: seq, Prompt: prompt, Images: images, At: t.started})
	s.setState(StateRecognizing, fmt.Sprintf("task %d", seq))
	if d := s.opts.MaxDuration; d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, d, errMaxDuration)
		defer cancel()
	}
	st := t.run(ctx)
	if st.reason == StopCancelled && errors.Is(context.Cause(ctx), errMaxDuration) {
		st = t.durationStop()
	}
	t.storeLesson(*st)
	s.finishTask(t, *st)
}

// errMaxDuration is the cause of a task's context ending at max_duration.
var errMaxDuration = errors.New("the task reached max_duration")

// durationStop is the stop at max_duration: where the task stands, and
// the model's last text as the partial result.
func (t *task) durationStop() *stop {
	if t.result == "" {
		t.result = t.s.conv.lastAssistantText(t.histStart)
	}
	return &stop{reason: StopMaxDuration, message: fmt.Sprintf("stopped after %s (max_duration %s); %s",
		t.s.now().Sub(t.started).Round(time.Second), t.s.opts.MaxDuration, t.whereItStands())}
}

// run is the loop: request, stream, act, observe, until a stop.
func (t *task) run(ctx context.Context) *stop {
	t.histStart = len(t.s.conv.view())
	prompt, st := t.promptHooks(ctx)
	if st != nil {
		return st
	}
	t.s.appendHistory(llm.Message{Role: llm.RoleUser, Content: prompt, Images: llmImages(t.images)})
	t.offerLessons()
	for {
		if st := t.checkLimits(); st != nil {
			return st
		}
		if st := t.compactIfNeeded(ctx, false); st != nil {
			return st
		}
		resp, st := t.round(ctx)
		if st != nil {
			t.s.opts.Recorder.round(t, resp, nil, nil) // the failed or cancelled round is logged too
			return st
		}
		if st := t.afterResponse(ctx, resp); st != nil {
			return st
		}
	}
}

// round sends one request and streams the response, handling context
// overflow by compacting and retrying.
func (t *task) round(ctx context.Context) (llm.Response, *stop) {
	for {
		t.flushPending()
		t.enterRequest()
		resp, err := t.stream(ctx)
		if err == nil {
			t.compaction.ctxRetries = 0
			return resp, nil
		}
		if ctx.Err() != nil {
			t.keepPartial(resp)
			return resp, &stop{reason: StopCancelled, message: "cancelled while the model was answering"}
		}
		var le *llm.Error
		if errors.As(err, &le) && le.Kind == llm.KindContextLength && t.compaction.ctxRetries < 2 {
			t.compaction.ctxRetries++
			t.limits.rounds-- // the refused request is retried, not a turn of its own
			if st := t.compactIfNeeded(ctx, true); st != nil {
				return resp, st
			}
			continue
		}
		if errors.As(err, &le) && le.Kind == llm.KindContextLength {
			return resp, &stop{reason: StopContextOverflow, message: "the conversation no longer fits the model's context window, even after compacting: " + t.s.tooLarge(), err: err}
		}
		return resp, &stop{reason: StopProviderError, message: err.Error(), err: err}
	}
}

// afterResponse records the answer and either ends the task, or runs the
// tools it asked for and applies discipline.
func (t *task) afterResponse(ctx context.Context, resp llm.Response) *stop {
	t.s.appendHistory(llm.Message{Role: llm.RoleAssistant, Content: resp.Content, Reasoning: resp.Reasoning, ToolCalls: resp.ToolCalls})
	t.s.out.send(AssistantMessage{Round: t.s.currentRound(), Content: resp.Content, Reasoning: resp.Reasoning,
		ToolCalls: resp.ToolCalls, FinishReason: resp.FinishReason, Usage: resp.Usage})
	t.checkAnswered(callNames(resp.ToolCalls), resp.Content)
	t.answerInterventions(resp.Content)
	if len(resp.ToolCalls) == 0 {
		return t.endOfTurn(ctx, resp)
	}
	t.enterTools(resp.ToolCalls)
	look, named := t.lookBefore(resp.ToolCalls)
	outcomes := t.runTools(ctx, resp.ToolCalls, resp.FinishReason)
	t.lookAfter(outcomes, look, named)
	if t.plan.cancelAsked.Load() {
		t.s.opts.Recorder.round(t, resp, outcomes, nil)
		return &stop{reason: StopCancelled, message: "cancelled when the plan was shown for approval"}
	}
	if t.plan.unconfirmed.Load() {
		t.s.opts.Recorder.round(t, resp, outcomes, nil)
		return &stop{reason: StopPlanUnconfirmed, message: "the plan has side effects and --confirm-plan is on, but nobody can approve it in headless mode and no permission rule allows it; run it in the TUI, or allow its calls with --allow or a [permissions] rule"}
	}
	if ctx.Err() != nil {
		t.s.opts.Recorder.round(t, resp, outcomes, nil)
		return &stop{reason: StopCancelled, message: "cancelled while tools were running"}
	}
	if st := t.datalogStop.Load(); st != nil {
		t.s.opts.Recorder.round(t, resp, outcomes, nil)
		return st
	}
	t.s.setState(StateObserving, "")
	fired := t.observe(outcomes, false)
	t.s.opts.Recorder.round(t, resp, outcomes, fired)
	return t.applyDecision(ctx)
}

// endOfTurn handles an answer without tool calls: a length cut gets one
// continuation; discipline may send the model back to work; else done.
func (t *task) endOfTurn(ctx context.Context, resp llm.Response) *stop {
	t.s.setState(StateSynthesizing, "")
	if t.continued {
		t.result += resp.Content // the continuation of an answer cut at the output limit
	} else {
		t.result = resp.Content
	}
	if resp.FinishReason == "length" {
		t.s.opts.Recorder.round(t, resp, nil, nil)
		if t.continued {
			return &stop{reason: StopCompleted, message: "the answer was cut at the output limit twice; it is shown as far as it got"}
		}
		t.continued = true
		t.checkpoints.pending = append(t.checkpoints.pending, "Your answer was cut off at the output limit. Continue exactly where you stopped.")
		return nil
	}
	fired := t.observe(nil, true)
	t.s.opts.Recorder.round(t, resp, nil, fired)
	if st := t.applyDecision(ctx); st != nil {
		return st
	}
	if len(t.checkpoints.pending) > 0 || t.stopHooks(ctx) {
		return nil
	}
	return &stop{reason: StopCompleted, message: "completed"}
}

// checkLimits stops the task before a request that would pass a limit.
func (t *task) checkLimits() *stop {
	l := t.s.opts.Limits
	switch {
	case l.MaxTurns > 0 && t.limits.rounds >= l.MaxTurns:
		return &stop{reason: StopMaxTurns, message: fmt.Sprintf("stopped after %s (max_turns); %s", count(t.limits.rounds, "LLM round"), t.whereItStands())}
	case l.MaxToolCalls > 0 && t.limits.toolCalls >= l.MaxToolCalls:
		return &stop{reason: StopMaxToolCalls, message: fmt.Sprintf("stopped at max_tool_calls (%d): %s made%s; %s", l.MaxToolCalls, count(t.limits.toolCalls, "tool call"), t.skippedNote(), t.planStands())}
	case l.TokenBudget > 0 && t.limits.usage.PromptTokens+t.limits.usage.CompletionTokens >= l.TokenBudget:
		return &stop{reason: StopTokenBudget, message: fmt.Sprintf("stopped after %d tokens (token_budget %d); %s", t.limits.usage.PromptTokens+t.limits.usage.CompletionTokens, l.TokenBudget, t.whereItStands())}
	}
	return nil
}

// skippedNote says how many calls max_tool_calls left unrun, if any.
func (t *task) skippedNote() string {
	if t.limits.skipped == 0 {
		return ""
	}
	return fmt.Sprintf(", %d more the model asked for in the last round skipped, not run", t.limits.skipped)
}

// whereItStands summarises progress for a limit's stop message.
func (t *task) whereItStands() string {
	p := t.s.Plan()
	if p == nil || len(p.Steps) == 0 {
		return fmt.Sprintf("%s made, no plan recorded", count(t.limits.toolCalls, "tool call"))
	}
	return t.planStands()
}

// planStands is the plan's progress, or that there is none.
func (t *task) planStands() string {
	p := t.s.Plan()
	if p == nil || len(p.Steps) == 0 {
		return "no plan recorded"
	}
	c := p.Counts()
	return fmt.Sprintf("plan %q: %d of %s completed", p.Goal, c[StepCompleted], count(len(p.Steps), "step"))
}

// flushPending moves injected messages into the history, merged into one
// user message so a round carries at most one.
func (t *task) flushPending() {
	if len(t.checkpoints.pending) == 0 {
		return
	}
	msg := t.checkpoints.pending[0]
	for _, p := range t.checkpoints.pending[1:] {
		msg += "\n\n" + p
	}
	t.checkpoints.pending = nil
	t.s.appendHistory(llm.Message{Role: llm.RoleUser, Content: msg})
}

// keepPartial keeps a cancelled answer's text so the history shows what
// was said; unfinished tool calls are dropped (nothing ran).
func (t *task) keepPartial(resp llm.Response) {
	if resp.Content != "" {
		t.s.appendHistory(llm.Message{Role: llm.RoleAssistant, Content: resp.Content})
	}
}

// count renders "1 tool call" or "3 tool calls" for messages: keel's
// one plural rule (discipline.Plural).
func count(n int, noun string) string { return discipline.Plural(n, noun) }
