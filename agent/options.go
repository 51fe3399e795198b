package agent

import (
	"time"

	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/discipline"
	"github.com/keel-dev/keel/tools"
)

// Options configure a Session. Only cmd/keel fills them from config.
type Options struct {
	Provider        Provider
	ProviderName    string
	Model           string
	ContextWindow   int // tokens; 0 disables compaction
	MaxOutputTokens int
	Prices          *Prices // nil: cost unknown
	// AcceptsImages says whether a model takes image input; the session
	// asks it for the model in force at each request. Nil: none does.
	AcceptsImages func(model string) bool

	Tools       []tools.Tool
	Permissions Permissions   // nil: everything allowed (tests)
	Gate        Gate          // nil: DenyGate
	Asker       Asker         // nil: a guard's question halts (headless)
	ConfirmPlan bool          // show the task's plan before its first side effect
	Confirmer   PlanConfirmer // nil: plans are approved with a notice (headless)
	// RecordAsker is asked before a change the datalog cannot record; nil
	// (headless): the change is not made and the task stops.
	RecordAsker RecordAsker
	Yolo        bool
	// Workspace is where the tools write: New journals its writes in the
	// datalog (undo). Nil: none journaled.
	Workspace *tools.Workspace

	// Hooks runs the user's hook commands at the session's events; nil
	// runs none.
	Hooks HookRunner
	// AgentName names a subagent's session (the task tool's child): its
	// hooks end with SubagentStop, and its questions say whose they are.
	AgentName string
	// Subagents configures the task tool; nil (or MaxParallel 0) offers
	// none, and a subagent never offers one.
	Subagents *Subagents

	Discipline discipline.Policy
	// StructuredReflection: checkpoints ask for a reflect call, which keel
	// validates, stores and acts on; off, they ask for free text.
	StructuredReflection bool
	// NotesMax bounds the working memory (the note tool); 0 offers no
	// note tool.
	NotesMax int
	// Lessons offers each new task the project's most relevant lessons
	// of earlier tasks (at most Lessons), and stores the task's own when
	// it ends; 0 does neither. Project names the project (its root).
	Lessons int
	Project string
	// MaxDuration bounds a task's wall-clock time (0: none); the task
	// stops with max_duration and a partial result.
	MaxDuration   time.Duration
	Limits        Limits
	MaxBacktracks int // failed plans per task before plan_failed (0: no limit)

	Workdir string // where run_command runs by default (the working directory)
	// Jobs are the session's background jobs (the same value given to
	// tools.Options.Jobs); the session reports them and stops them when
	// it closes. Nil: no background jobs.
	Jobs          *tools.Jobs
	SystemPrompt  string // built by SystemPrompt(); re-sent each round
	Recorder      *Recorder
	CaptureBodies bool // keep raw request/response bodies in the datalog
	SessionID     string
	Now           func() time.Time
	EventBuffer   int
	// OnInternalError, when set, hears of every internal error (a state
	// transition the table lacks). cmd/keel appends them to the file
	// $KEEL_INTERNAL_ERRORS names, so the e2e suites can assert none.
	OnInternalError func(what string)
	// Observer, when set, sees every event as the agent emits it, deltas
	// included and before any merging, one at a time and in order
	// (telemetry). It runs on the agent's goroutines: it must return at
	// once and never block.
	Observer func(Event)

	// A resumed session's state.
	History  []llm.Message
	Plan     *Plan
	Notes    []Note
	TaskSeq  int
	RoundSeq int
}

// Limits bound one user task. Zero disables each, except where noted.
// The values come from config, which owns their defaults.
type Limits struct {
	MaxTurns       int     // LLM rounds per task
	MaxToolCalls   int     // tool calls per task
	TokenBudget    int     // input+output tokens per task
	CompactAt      float64 // fraction of the context window that triggers compaction (0: only when the server says it overflowed)
	MaxCompactions int     // per task (0: none, an overflow stops the task)
	ToolOutputCap  int     // bytes of tool output sent to the model (0: uncapped)
	KeepRounds     int     // rounds kept verbatim by compaction (0: the last one)
}

// Prices are a provider's prices per million tokens.
type Prices struct {
	InputPerMTok, OutputPerMTok float64
}

// Cost returns the price of u in dollars.
func (p *Prices) Cost(u llm.Usage) float64 {
	if p == nil {
		return 0
	}
	return (float64(u.PromptTokens)*p.InputPerMTok + float64(u.CompletionTokens)*p.OutputPerMTok) / 1e6
}

func (o Options) withDefaults() Options {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.EventBuffer <= 0 {
		o.EventBuffer = 256
	}
	if o.Gate == nil {
		o.Gate = DenyGate{}
	}
	return o
}
