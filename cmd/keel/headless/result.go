package headless

import "github.com/keel-dev/keel/agent"

// Result is the headless JSON result object. Besides keel's own fields
// it carries the names other tools read from an agent's result (type,
// subtype, is_error, num_turns, total_cost_usd); see Subtype.
type Result struct {
	Type     string `json:"type"`    // always "result"
	Subtype  string `json:"subtype"` // Subtype(StopReason)
	IsError  bool   `json:"is_error"`
	NumTurns int    `json:"num_turns"` // = Turns
	// TotalCostUSD is CostUSD, or 0 when keel has no prices for the
	// model (CostUSD is null then).
	TotalCostUSD      float64              `json:"total_cost_usd"`
	SessionID         string               `json:"session_id"`
	Result            string               `json:"result"`
	StopReason        agent.StopReason     `json:"stop_reason"`
	Message           string               `json:"message,omitempty"`
	Turns             int                  `json:"turns"`
	ToolCalls         int                  `json:"tool_calls"`
	Usage             ResultUsage          `json:"usage"`
	CostUSD           *float64             `json:"cost_usd"`
	DurationMS        int64                `json:"duration_ms"`
	Interventions     []ResultIntervention `json:"interventions"`
	PermissionDenials []agent.Denial       `json:"permission_denials"`
	Plan              *agent.Plan          `json:"plan"`
}

// ResultUsage is the token usage of a task.
type ResultUsage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	CachedTokens int `json:"cached_tokens"`
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
)

// Subtype maps a stop reason onto the subtype other tools know: completed
// is "success"; max_turns and max_tool_calls (the task ran out of the
// steps it was allowed) are "error_max_turns"; plan_unconfirmed and
// needs_user have their own ("error_plan_unconfirmed", "error_needs_user"):
// nothing went wrong, a person is needed; every other reason
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
	default:
		return SubtypeDuringExecution
	}
}

// NewResult builds the result object of a stopped task.
func NewResult(sessionID string, st agent.TaskStopped) Result {
	sum := st.Summary
	r := Result{
		Type: "result", Subtype: Subtype(st.Reason), IsError: st.Reason != agent.StopCompleted, NumTurns: sum.Turns,
		SessionID: sessionID, Result: st.Result, StopReason: st.Reason, Message: st.Message,
		Turns: sum.Turns, ToolCalls: sum.ToolCalls, CostUSD: sum.CostUSD,
		Usage:             ResultUsage{InputTokens: sum.Usage.PromptTokens, OutputTokens: sum.Usage.CompletionTokens, CachedTokens: sum.Usage.CachedTokens},
		DurationMS:        sum.Duration.Milliseconds(),
		Interventions:     []ResultIntervention{},
		PermissionDenials: []agent.Denial{},
		Plan:              sum.Plan,
	}
	for _, in := range sum.Interventions {
		r.Interventions = append(r.Interventions, ResultIntervention{Kind: in.Kind, AtToolCall: in.AtToolCall, Message: in.Message, Why: in.Why, Reply: in.Reply})
	}
	r.PermissionDenials = append(r.PermissionDenials, sum.Denials...)
	if sum.CostUSD != nil {
		r.TotalCostUSD = *sum.CostUSD
	}
	return r
}
