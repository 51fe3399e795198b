package agent

import (
	"time"

	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/tools"
)

// Event is something the agent reports to the UI or the headless runner.
// Deltas may be coalesced; every other event is delivered exactly once.
type Event interface{ event() }

// StateChanged reports a transition of the agent's state.
type StateChanged struct {
	From, To State
	Detail   string // e.g. "rate limited, retrying in 12 s" or the stop reason
	At       time.Time
}

// TaskStarted reports a task taking a prompt, before its first request.
type TaskStarted struct {
	Seq    int // the task's number in the session
	Prompt string
	Images []tools.Image // attached to the prompt
	At     time.Time
}

// TextDelta is a piece of the assistant's answer as it streams.
type TextDelta struct{ Text string }

// ReasoningDelta is a piece of the model's reasoning as it streams.
type ReasoningDelta struct{ Text string }

// ToolCallStreaming reports a tool call taking shape while it streams.
type ToolCallStreaming struct {
	Index    int
	Name     string
	ArgBytes int // argument bytes received so far
}

// AnswerRestarted tells consumers to drop the partial answer of this round:
// a provider fault interrupted it and the request is being retried.
type AnswerRestarted struct{ Reason string }

// AssistantMessage is the model's whole answer of one round, as it
// entered the history: its text and the tool calls it asked for.
type AssistantMessage struct {
	Round        int
	Content      string
	Reasoning    string
	ToolCalls    []llm.ToolCall
	FinishReason string
	Usage        llm.Usage
}

// ToolStarted reports a tool call about to run.
type ToolStarted struct {
	CallID, Name, Args string
}

// ToolProgress reports how far a running call got (an MCP server's
// progress notification). It may be coalesced away, never reordered
// after the call's ToolFinished.
type ToolProgress struct {
	CallID, Name string
	Progress     tools.Progress
}

// ToolFinished reports a tool call's outcome.
type ToolFinished struct {
	CallID, Name, Args string
	Output             string // as sent to the model (capped)
	IsError            bool
	Denied             bool   // the permission gate refused it
	DenyReason         string // why, when Denied
	Decision           string // the permission decision: "allow", "deny", or "" when none was made
	DecidedBy          string // who made it: datalog.DecidedBy… ("policy", "rule: RULE", "session: PATTERN", "user:once", ...)
	Diff               string
	Changes            []tools.FileChange // the files it wrote, before and after (an editor's diff view)
	ExitCode           *int
	Duration           time.Duration
	Images             []tools.Image    // pictures it returned, for the model to see
	Progress           []tools.Progress // what it reported while it ran
}

// UsageUpdated reports token accounting after a round.
type UsageUpdated struct {
	Round, Task, Session llm.Usage
	ContextTokens        int      // prompt tokens of the last request (or an estimate)
	ContextWindow        int      // the provider's window, 0 when unknown
	CostUSD              *float64 // session cost; nil when no price is configured
	ToolCalls            int      // tool calls in this task so far
	NextCheckpointIn     int      // tool calls until the next cadence checkpoint; 0 when off
}

// ContextCompacted reports that /compact shrank the history: the
// conversation's estimated size before and after (4 bytes a token), so
// the context figure can drop at once, not at the next round.
type ContextCompacted struct{ TokensBefore, TokensAfter int }

// Lower is a context figure (the last request's prompt tokens) less what
// the compaction removed, never below what remains.
func (c ContextCompacted) Lower(tokens int) int {
	removed := max(c.TokensBefore-c.TokensAfter, 0)
	return max(tokens-removed, min(c.TokensAfter, tokens))
}

// InterventionFired reports post-round discipline stepping in.
type InterventionFired struct{ Intervention Intervention }

// InterventionAnswered attaches the model's first text after a checkpoint to it.
type InterventionAnswered struct {
	Seq  int // Intervention.Seq of the checkpoint
	Text string
}

// ReportUpdated carries the reflection report after a round, computed
// from round data (not by the model), for the plan panel's footer.
type ReportUpdated struct {
	Lines   []string // the report as the checkpoint states it
	Stalled []string // steps active longer than the stall threshold, "title (N rounds)"
}

// PlanChanged reports a new version of the plan.
type PlanChanged struct{ Plan Plan }

// RoundFinished reports the end of one LLM round.
type RoundFinished struct {
	Seq          int
	Model        string // the model that answered (/model may change it)
	FinishReason string
	Usage        llm.Usage
	FirstToken   time.Duration
	Duration     time.Duration
}

// Retrying reports a provider fault that will be retried.
type Retrying struct {
	Provider string
	Kind     string
	Attempt  int
	Wait     time.Duration
	Err      string // the whole notice, e.g. "openai failed (HTTP 503), retry 1 in 30 s, as it asked (Retry-After)"
	Why      string // its cause alone, for a status line: "rate limited by openai", "openai: HTTP 503"
}

// ProviderSilent reports a server that has sent nothing for Quiet while
// keel waits on it (Quiet 0: bytes flow again). Timeout is when keel
// abandons the attempt (stream_idle_timeout).
type ProviderSilent struct {
	Provider       string
	Quiet, Timeout time.Duration
}

// Notice is a one-line message for the user that changes nothing, such as
// a datalog write that failed and will be retried.
type Notice struct{ Text string }

// JobChanged reports a background job that started or ended; Running is
// how many jobs run after it.
type JobChanged struct {
	Job     tools.JobInfo
	Running int
}

// TaskStopped is the last event of a task.
type TaskStopped struct {
	Reason  StopReason
	Message string // one sentence on where the task stands
	Result  string // the final answer text
	Err     error  // set for provider_error
	Summary TaskSummary
}

// TaskSummary is a finished task's figures, as headless JSON reports them.
type TaskSummary struct {
	Turns     int
	ToolCalls int
	Usage     llm.Usage
	CostUSD   *float64
	Duration  time.Duration
	// APIDuration is the time spent waiting on the model: the task's
	// rounds' request-to-end durations.
	APIDuration   time.Duration
	Interventions []Intervention
	Denials       []Denial
	Plan          *Plan
}

func (StateChanged) event()         {}
func (TaskStarted) event()          {}
func (JobChanged) event()           {}
func (TextDelta) event()            {}
func (ReasoningDelta) event()       {}
func (ToolCallStreaming) event()    {}
func (AnswerRestarted) event()      {}
func (AssistantMessage) event()     {}
func (ToolStarted) event()          {}
func (ToolFinished) event()         {}
func (ToolProgress) event()         {}
func (UsageUpdated) event()         {}
func (InterventionFired) event()    {}
func (ContextCompacted) event()     {}
func (InterventionAnswered) event() {}
func (PlanChanged) event()          {}
func (ReportUpdated) event()        {}
func (RoundFinished) event()        {}
func (Retrying) event()             {}
func (ProviderSilent) event()       {}
func (Notice) event()               {}
func (TaskStopped) event()          {}
