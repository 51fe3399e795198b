package headless

import (
	"encoding/json"

	"github.com/keel-dev/keel/agent"
)

// Result is the headless JSON result object, Claude Code's result message
// (type, subtype, is_error, duration_ms, duration_api_ms, num_turns,
// result, session_id, total_cost_usd, usage, modelUsage,
// permission_denials, uuid) followed by keel's own fields.
type Result struct {
	Type          string `json:"type"`    // always "result"
	Subtype       string `json:"subtype"` // Subtype(StopReason)
	IsError       bool   `json:"is_error"`
	DurationMS    int64  `json:"duration_ms"`
	DurationAPIMS int64  `json:"duration_api_ms"` // waiting on the model, retries included
	NumTurns      int    `json:"num_turns"`       // = Turns
	Result        string `json:"result"`
	SessionID     string `json:"session_id"`
	// TotalCostUSD is CostUSD, or 0 when keel has no prices for the
	// model (CostUSD is null then).
	TotalCostUSD      float64               `json:"total_cost_usd"`
	Usage             Usage                 `json:"usage"`
	ModelUsage        map[string]ModelUsage `json:"modelUsage"`
	PermissionDenials []Denial              `json:"permission_denials"`
	UUID              string                `json:"uuid"`
	Errors            []string              `json:"errors,omitempty"` // why, when keel could not start or the provider failed

	StopReason    agent.StopReason     `json:"stop_reason"`
	Message       string               `json:"message,omitempty"`
	Turns         int                  `json:"turns"`
	ToolCalls     int                  `json:"tool_calls"`
	CostUSD       *float64             `json:"cost_usd"`
	Interventions []ResultIntervention `json:"interventions"`
	Plan          *agent.Plan          `json:"plan"`
}

// ModelUsage is one model's share of a task, as Claude Code's modelUsage.
type ModelUsage struct {
	InputTokens              int     `json:"inputTokens"`
	OutputTokens             int     `json:"outputTokens"`
	CacheReadInputTokens     int     `json:"cacheReadInputTokens"`
	CacheCreationInputTokens int     `json:"cacheCreationInputTokens"`
	WebSearchRequests        int     `json:"webSearchRequests"`
	CostUSD                  float64 `json:"costUSD"`
}

// Denial is a refused tool call as Claude Code reports it, with keel's
// reason.
type Denial struct {
	ToolName  string          `json:"tool_name"`
	ToolUseID string          `json:"tool_use_id"`
	ToolInput json.RawMessage `json:"tool_input"`
	Reason    string          `json:"reason"`
}

// ResultIntervention is one intervention as headless JSON reports it.
type ResultIntervention struct {
	Kind       string `json:"kind"`
	AtToolCall int    `json:"at_tool_call"`
	Message    string `json:"message"`
	Why        string `json:"why,omitempty"`
	Reply      string `json:"reply,omitempty"`
}

// The result's subtypes.
const (
	SubtypeSuccess         = "success"
	SubtypeMaxTurns        = "error_max_turns"
	SubtypeDuringExecution = "error_during_execution"
	// SubtypePlanUnconfirmed: --confirm-plan, a plan with side effects,
	// nobody to approve it and no rule allowing it.
	SubtypePlanUnconfirmed = "error_plan_unconfirmed"
	// SubtypeNeedsUser: the model's reflection asked the user a question
	// and nobody was there to answer.
	SubtypeNeedsUser = "error_needs_user"
	// SubtypeDatalog: keel's datalog could not record a change keel was
	// about to make (undo could not restore it) or the task's records.
	SubtypeDatalog = "error_datalog"
)

// Subtype maps a stop reason onto the subtype other tools know: completed
// is "success"; max_turns and max_tool_calls (the task ran out of the
// steps it was allowed) are "error_max_turns"; plan_unconfirmed and
// needs_user have their own ("error_plan_unconfirmed", "error_needs_user"):
// nothing went wrong, a person is needed; so has datalog_unavailable
// ("error_datalog": the disk or the database needs fixing); every other reason
// (max_duration, token_budget, loop_detected, plan_failed, model_stopped,
// cancelled, provider_error, context_overflow) is "error_during_execution".
// stop_reason keeps the exact reason.
func Subtype(r agent.StopReason) string {
	switch r {
	case agent.StopCompleted:
		return SubtypeSuccess
	case agent.StopMaxTurns, agent.StopMaxToolCalls:
		return SubtypeMaxTurns
	case agent.StopPlanUnconfirmed:
		return SubtypePlanUnconfirmed
	case agent.StopNeedsUser:
		return SubtypeNeedsUser
	case agent.StopDatalog:
		return SubtypeDatalog
	default:
		return SubtypeDuringExecution
	}
}

// NewResult builds the result object of a stopped task of a session
// talking to model.
func NewResult(sessionID, model string, st agent.TaskStopped) Result {
	sum := st.Summary
	r := Result{
		Type: "result", Subtype: Subtype(st.Reason), IsError: st.Reason != agent.StopCompleted, NumTurns: sum.Turns,
		SessionID: sessionID, Result: st.Result, StopReason: st.Reason, Message: st.Message,
		Turns: sum.Turns, ToolCalls: sum.ToolCalls, CostUSD: sum.CostUSD, Usage: usageOf(sum.Usage),
		DurationMS: sum.Duration.Milliseconds(), DurationAPIMS: sum.APIDuration.Milliseconds(),
		ModelUsage: map[string]ModelUsage{}, UUID: newUUID(),
		Interventions:     []ResultIntervention{},
		PermissionDenials: []Denial{},
		Plan:              sum.Plan,
	}
	for _, in := range sum.Interventions {
		r.Interventions = append(r.Interventions, ResultIntervention{Kind: in.Kind, AtToolCall: in.AtToolCall, Message: in.Message, Why: in.Why, Reply: in.Reply})
	}
	for _, d := range sum.Denials {
		r.PermissionDenials = append(r.PermissionDenials, Denial{ToolName: d.Tool, ToolUseID: d.CallID, ToolInput: toolInput(d.Args), Reason: d.Reason})
	}
	if sum.CostUSD != nil {
		r.TotalCostUSD = *sum.CostUSD
	}
	if st.Err != nil {
		r.Errors = []string{st.Err.Error()}
	}
	if model != "" {
		u := r.Usage
		r.ModelUsage[model] = ModelUsage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
			CacheReadInputTokens: u.CacheReadInputTokens, CostUSD: r.TotalCostUSD}
	}
	return r
}

// StartupError is the result object of a run that failed before its task
// started (no API key, an unknown --resume id, a broken config): json and
// stream-json scripts read why on stdout, as they read any other end.
func StartupError(sessionID string, err error) Result {
	msg := err.Error()
	return Result{Type: "result", Subtype: SubtypeDuringExecution, IsError: true, SessionID: sessionID, Result: msg,
		Errors: []string{msg}, StopReason: StopStartup, Message: msg, ModelUsage: map[string]ModelUsage{}, UUID: newUUID(),
		PermissionDenials: []Denial{}, Interventions: []ResultIntervention{}}
}

// StopStartup is the stop_reason of a run that never started its task.
const StopStartup agent.StopReason = "startup_error"
