package datalog

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/keel-dev/keel/agent/llm"
)

// StopInterrupted is the stop reason the read side reports for a session
// that never ended: its process died (crash, SIGKILL, power loss).
const StopInterrupted = "interrupted"

// Who decided a tool call's permission. The user's answers say how the
// dialog was answered: allowed once, for the session with the grant's
// pattern ("user:session: run_command: go test*"), or always with the
// rule saved in config; a denial, and rows written before the
// distinction, are DecidedByUser. A call the policy let through without
// asking names what allowed it: an allow rule in config ("rule: RULE"),
// an earlier answer's session grant ("session: PATTERN"), keel's
// read-only analysis (DecidedByPolicy) or --yolo; rows written before
// that distinction say DecidedByRule for rules and grants alike.
const (
	DecidedByRule        = "rule"
	DecidedByUser        = "user"
	DecidedByUserOnce    = "user:once"
	DecidedByUserSession = "user:session: " // followed by the grant's pattern
	DecidedByUserAlways  = "user:always: "  // followed by the rule saved in config
	DecidedByRuleNamed   = "rule: "         // followed by the allow rule as the config has it
	DecidedBySession     = "session: "      // followed by the session grant's pattern
	DecidedByPolicy      = "policy"
	DecidedByYolo        = "yolo"
	DecidedByHook        = "hook"
)

// ByUser reports a decision the user made in the permission dialog.
func ByUser(decidedBy string) bool {
	return decidedBy == DecidedByUser || strings.HasPrefix(decidedBy, "user:")
}

// UserAllowed says how the user allowed tool, as the dialog's note said
// it live: "allowed run_command once", "allowed for this session:
// PATTERN", or "allowed run_command" for a row that did not record which.
func UserAllowed(tool, decidedBy string) string {
	if pattern, ok := strings.CutPrefix(decidedBy, DecidedByUserSession); ok {
		return "allowed for this session: " + pattern
	}
	if decidedBy == DecidedByUserOnce {
		return "allowed " + tool + " once"
	}
	if rule, ok := strings.CutPrefix(decidedBy, DecidedByUserAlways); ok {
		return "allowed always: " + rule
	}
	return "allowed " + tool
}

// MaxResultBytes caps a stored tool result; ToolCall.ResultSize keeps the
// full size.
const MaxResultBytes = 256 << 10

// Totals are a session's running sums.
type Totals struct {
	Rounds       int     `json:"rounds"`
	ToolCalls    int     `json:"tool_calls"`
	TokensIn     int     `json:"tokens_in"`
	TokensOut    int     `json:"tokens_out"`
	TokensCached int     `json:"tokens_cached"`
	Cost         float64 `json:"cost"`
}

// Session is one keel conversation. Ended is zero while it runs; the read
// side reports a session that never ended with StopInterrupted.
type Session struct {
	ID          string          `json:"id"`
	ProjectRoot string          `json:"project_root"`
	Cwd         string          `json:"cwd"`
	GitBranch   string          `json:"git_branch"`
	Provider    string          `json:"provider"`
	Model       string          `json:"model"`
	Config      json.RawMessage `json:"config,omitempty"` // snapshot without secrets
	FirstPrompt string          `json:"first_prompt"`
	Started     time.Time       `json:"started"`
	Ended       time.Time       `json:"ended"`
	StopReason  string          `json:"stop_reason"`
	Totals      Totals          `json:"totals"`
	// A subagent's session: the session and the task call that started
	// it, and the agent's name (all "" for a user's session).
	ParentID     string `json:"parent_id,omitempty"`
	ParentCallID string `json:"parent_call_id,omitempty"`
	Agent        string `json:"agent,omitempty"`
}

// Round is one LLM request and its answer.
type Round struct {
	SessionID       string        `json:"session_id"`
	Seq             int           `json:"seq"`      // 1-based within the session
	TaskSeq         int           `json:"task_seq"` // user task number within the session
	RequestMessages int           `json:"request_messages"`
	RequestTokens   int           `json:"request_tokens"` // estimate before sending
	FirstToken      time.Duration `json:"first_token_ns"`
	Duration        time.Duration `json:"duration_ns"`
	FinishReason    string        `json:"finish_reason"`
	TokensIn        int           `json:"tokens_in"`
	TokensOut       int           `json:"tokens_out"`
	TokensCached    int           `json:"tokens_cached"`
	Cost            float64       `json:"cost"`
	Retries         int           `json:"retries"`
	Started         time.Time     `json:"started"`
}

// Message is one stored history entry. JSON is the llm.Message exactly as
// marshalled when written (after redaction); Msg is it decoded.
type Message struct {
	SessionID string          `json:"session_id"`
	Seq       int             `json:"seq"`
	Round     int             `json:"round"`
	Epoch     int             `json:"epoch"` // round that last replaced the history
	JSON      json.RawMessage `json:"json"`
	Msg       llm.Message     `json:"-"`
}

// ToolCall is one executed tool call. Result is capped at MaxResultBytes.
type ToolCall struct {
	SessionID  string        `json:"session_id"`
	Round      int           `json:"round"`
	Index      int           `json:"index"` // position in the round
	CallID     string        `json:"call_id"`
	Name       string        `json:"name"`
	Arguments  string        `json:"arguments"`
	Result     string        `json:"result"`
	ResultSize int           `json:"result_size"` // full size before the cap
	IsError    bool          `json:"is_error"`
	Duration   time.Duration `json:"duration_ns"`
	Permission string        `json:"permission"` // e.g. allow, deny
	DecidedBy  string        `json:"decided_by"` // DecidedByRule, ...
	// Verified: a command that counts as verifying edits, decided when
	// it ran (keel log stats reads this flag).
	Verified bool `json:"verified,omitempty"`
	// Progress is what the call reported while it ran (an MCP server's
	// progress notifications), a JSON array; "" when nothing.
	Progress string `json:"progress,omitempty"`
}

// Intent is a call with side effects about to run, committed before it
// starts: if keel is killed while it runs, the datalog still shows it
// ("started, outcome unknown"). The round's commit replaces it.
type Intent struct {
	SessionID string    `json:"session_id"`
	Round     int       `json:"round"`
	CallID    string    `json:"call_id"`
	Name      string    `json:"name"`
	Arguments string    `json:"arguments"`
	Started   time.Time `json:"started"`
}

// Intervention is one discipline decision the agent acted on. Reply is
// the model's next text, attached later with UpdateInterventionReply.
type Intervention struct {
	SessionID  string          `json:"session_id"`
	Round      int             `json:"round"`
	Index      int             `json:"index"` // position in the round
	Kind       string          `json:"kind"`
	AtToolCall int             `json:"at_tool_call"`
	Figures    json.RawMessage `json:"figures,omitempty"`
	Message    string          `json:"message"`
	Reply      string          `json:"reply"`
	Why        string          `json:"why,omitempty"`    // what made it fire, as its card said
	Action     string          `json:"action,omitempty"` // inject, ask or halt ("" in rows before migration 0007)
}

// PlanSnapshot is the plan as it stood after a change.
type PlanSnapshot struct {
	SessionID string          `json:"session_id"`
	Round     int             `json:"round"`
	Attempt   int             `json:"attempt"`
	Status    string          `json:"status"`
	Plan      json.RawMessage `json:"plan"`
	At        time.Time       `json:"at"`
}

// StateTransition is one change of the agent's state.
type StateTransition struct {
	SessionID string    `json:"session_id"`
	Round     int       `json:"round"`
	From      string    `json:"from"`
	To        string    `json:"to"`
	Detail    string    `json:"detail"`
	At        time.Time `json:"at"`
}

// FileChange is one file written by a tool, with its content before and
// after, for undo. A path or content holding a secret is stored redacted
// and flagged (PathRedacted, BeforeRedacted, AfterRedacted); any other
// content is stored byte for byte. The hashes are of the real contents
// (of no bytes where there is none), so undo can check a file still
// holds what keel wrote even when that content was not stored; see
// TaskFileChanges. Rows written before schema version 3 have no hashes.
type FileChange struct {
	ID             int64     `json:"id"`
	SessionID      string    `json:"session_id"`
	Round          int       `json:"round"`
	TaskSeq        int       `json:"task_seq"`
	ToolCallID     string    `json:"tool_call_id"`
	Path           string    `json:"path"`
	Existed        bool      `json:"existed"`
	Before         []byte    `json:"before,omitempty"`
	After          []byte    `json:"after,omitempty"`
	Mode           uint32    `json:"mode"`
	Undone         time.Time `json:"undone"`
	BeforeSHA256   string    `json:"before_sha256,omitempty"` // hex
	AfterSHA256    string    `json:"after_sha256,omitempty"`  // hex
	PathRedacted   bool      `json:"path_redacted,omitempty"`
	BeforeRedacted bool      `json:"before_redacted,omitempty"`
	AfterRedacted  bool      `json:"after_redacted,omitempty"`
	// ByCommand: a change a command made, found after it ran; keel does
	// not know the content before, so undo cannot restore it.
	ByCommand bool `json:"by_command,omitempty"`
	// Splices: a large file's edit, kept as the pieces it replaced (JSON,
	// encoded by the caller) with the whole file's hashes; Before and
	// After are empty then. SplicesRedacted: they held a secret.
	Splices         json.RawMessage `json:"splices,omitempty"`
	SplicesRedacted bool            `json:"splices_redacted,omitempty"`
	// JournalID is the row JournalChange wrote before the file was
	// changed: the round's commit completes that row instead of adding one.
	JournalID int64 `json:"-"`
	// AfterNotKept: a large write whose content is not stored (After is
	// empty); AfterSHA256, given by the caller, is the hash of what it
	// wrote. Undo needs only that and the content before.
	AfterNotKept bool `json:"-"`
	// Pending: journaled before the change, and no round committed it
	// (keel was stopped while it ran), so whether the file was written is
	// not known; undo compares the file with its before and after.
	Pending bool `json:"pending,omitempty"`
	// Withheld (TaskFileChanges only) says why undo cannot write this
	// change's content before back, or find its file (PathWithheld).
	Withheld     string `json:"-"`
	PathWithheld bool   `json:"-"`
	// NewDirs: the directories the change created for a new file,
	// outermost first (journaled changes only).
	NewDirs []string `json:"new_dirs,omitempty"`
}

// RoundRecord is everything one round produced, committed together.
// SessionID and Round of the children are taken from Round.
type RoundRecord struct {
	Round Round
	// Messages are the history entries added in this round, in order.
	Messages []llm.Message
	// HistoryReset says Messages replace the whole history (compaction);
	// earlier messages stay for browsing but LoadHistory skips them.
	HistoryReset  bool
	ToolCalls     []ToolCall
	Interventions []Intervention
	Plans         []PlanSnapshot
	Transitions   []StateTransition
	FileChanges   []FileChange
	// DropJournal are journal rows (JournalChange) of calls that changed
	// no file after all (the write failed or was refused).
	DropJournal []int64
	// Request and Response are raw HTTP bodies, stored only with
	// Options.CaptureBodies.
	Request, Response []byte
}

// CostKnown reports whether a stored cost is a price at all: keel stores
// 0 when the model has no price, so tokens used at no cost mean the price
// was unknown (and nothing used costs a known $0).
func CostKnown(cost float64, tokens int) bool { return cost != 0 || tokens == 0 }
