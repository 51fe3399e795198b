package discipline

// RoundSummary is what happened in one LLM round, as the agent saw it.
type RoundSummary struct {
	Calls     []ToolCall // in the order they ran
	EndedTurn bool       // the model answered without tool calls
	Text      string     // the answer's text when EndedTurn, for the monologue guard
	Plan      PlanView   // the plan after this round; zero when none
	// Compacted reports that context compaction ran before this round, so
	// earlier reads and results are no longer in the model's context.
	Compacted bool
	// WorldChanged reports that files changed outside keel's own calls
	// since keel last looked, before this round's calls ran (the agent's
	// workspace check: see docs/DISCIPLINE.md); Outside names some.
	// Like an edit, it makes a repeated call or failure new evidence.
	WorldChanged bool
	Outside      []string
	// ToolCalls is the task's tool-call count after this round.
	ToolCalls     int
	ContextUsed   int // prompt tokens of the last request
	ContextWindow int // the model's context window in tokens; 0 unknown
}

// ToolCall is one tool call of a round and what it produced.
type ToolCall struct {
	Name       string
	Args       string // NormalizeArgs of the raw arguments
	ResultHash string // HashOutput of the output the model saw
	IsError    bool
	// ErrorLine is the failure text: a command's whole output (its most
	// informative line counts, see FailureLine), or a tool's error (its
	// first line counts). AfterRound normalizes it with NormalizeError.
	ErrorLine string
	Command   string   // run_command only: the command line
	Workdir   string   // run_command only: where it ran, relative to the workspace ("" the root)
	ExitCode  int      // run_command only
	Reads     []Read   // file regions returned to the model
	Changed   []string // absolute paths the call edited or wrote
	// Edits are the changes whose content keel knows: each file's content
	// hash before and after (Absent for a file that did not or no longer
	// exists; "" before when unknown).
	Edits []Edit
	// Job is set for a call that started or read a background job.
	Job *Job
}

// Absent is the content hash of a file that does not exist.
const Absent = "absent"

// Edit is one file's content before and after a call, as hashes.
type Edit struct {
	Path          string
	Before, After string
}

// Job is what a call saw of a background job.
type Job struct {
	ID      string
	Started bool // the call started it (run_command with background)
	Running bool // still running after the call
	// NewOutput is how many bytes of output the call returned that no
	// earlier poll had; a poll that returns some is progress.
	NewOutput int
}

// Read is a file region returned to the model.
type Read struct {
	Path    string // absolute, symlinks resolved
	Version string // content hash, so a read after a change is new
	From    int    // first line, 1-based; negative: the last -From lines
	To      int    // last line, inclusive; 0: to the end of the file
	Total   int    // lines in the file
}

// Plan step statuses: keel's one declaration of them (the agent's plan,
// its update_plan tool's schema and the datalog take them from here).
const (
	StepPending   = "pending"
	StepActive    = "active"
	StepCompleted = "completed"
	StepFailed    = "failed"
	StepSkipped   = "skipped"
)

// StepStatuses lists the step statuses in the order a plan shows them.
func StepStatuses() []string {
	return []string{StepPending, StepActive, StepCompleted, StepFailed, StepSkipped}
}

// PlanView is the small view of the model's plan discipline needs.
type PlanView struct {
	Goal  string
	Steps []PlanStep
	// Parents maps a sub-step's title to its parent's title (decompose.go).
	Parents map[string]string
}

// PlanStep is one step of a PlanView.
type PlanStep struct {
	Title  string
	Status string // pending, active, completed, failed, skipped
}

// Count returns how many steps have the status.
func (p PlanView) Count(status string) int {
	n := 0
	for _, s := range p.Steps {
		if s.Status == status {
			n++
		}
	}
	return n
}

// Open lists the steps still pending or active, in plan order.
func (p PlanView) Open() []PlanStep {
	var open []PlanStep
	for _, s := range p.Steps {
		if s.Status == StepPending || s.Status == StepActive {
			open = append(open, s)
		}
	}
	return open
}

// titles returns the titles of the steps with the status.
func (p PlanView) titles(status string) []string {
	var out []string
	for _, s := range p.Steps {
		if s.Status == status {
			out = append(out, s.Title)
		}
	}
	return out
}

func (p PlanView) clone() PlanView {
	p.Steps = append([]PlanStep(nil), p.Steps...)
	return p
}
