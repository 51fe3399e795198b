package headless

import "github.com/keel-dev/keel/agent"

// Result is the headless JSON result object.
type Result struct {
	Type              string               `json:"type,omitempty"`
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

// NewResult builds the result object of a stopped task.
func NewResult(sessionID string, st agent.TaskStopped) Result {
	sum := st.Summary
	r := Result{
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
	return r
}
