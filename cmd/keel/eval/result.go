package eval

import (
	"github.com/keel-dev/keel/agent"
)

// The two sides of the comparison, as results and reports name them.
const (
	ArmA = "A"
	ArmB = "B"
)

// StopTimeout is a run's stop reason when it outlived Options.Timeout.
const StopTimeout = "timeout"

// RunResult is what one run of one task under one setting measured.
type RunResult struct {
	Task       string   `json:"task"`
	Arm        string   `json:"arm"` // ArmA or ArmB
	Run        int      `json:"run"` // 1-based
	Solved     bool     `json:"solved"`
	Failures   []string `json:"failures,omitempty"` // why the checker said unsolved
	StopReason string   `json:"stop_reason"`
	ToolCalls  int      `json:"tool_calls"`
	Waste      Waste    `json:"waste"`
	Wasted     int      `json:"wasted_calls"`
	// Tokens is input plus output tokens over the run's requests.
	Tokens        int            `json:"tokens"`
	InputTokens   int            `json:"input_tokens"`
	OutputTokens  int            `json:"output_tokens"`
	CostUSD       *float64       `json:"cost_usd"` // nil when the provider has no prices
	Interventions int            `json:"interventions"`
	ByKind        map[string]int `json:"interventions_by_kind,omitempty"`
	Turns         int            `json:"turns"`
	DurationMS    int64          `json:"duration_ms"`

	answer      string // the final answer, for the checker
	stopMessage string // the task's last word on why it stopped
}

// observe drains a session's events until its task stops and measures
// the run. ok is false when the stream closed before the task stopped.
func observe(events <-chan agent.Event, root string) (RunResult, bool) {
	var calls []Call
	for ev := range events {
		switch e := ev.(type) {
		case agent.ToolFinished:
			failed := e.IsError || e.Denied || (e.ExitCode != nil && *e.ExitCode != 0)
			calls = append(calls, Call{Name: e.Name, Args: e.Args, Output: e.Output, Failed: failed})
		case agent.TaskStopped:
			return measure(e, root, calls), true
		}
	}
	return RunResult{}, false
}

// measure turns a stopped task and its calls into a RunResult.
func measure(st agent.TaskStopped, root string, calls []Call) RunResult {
	sum := st.Summary
	w := ClassifyWaste(root, calls)
	r := RunResult{
		StopReason: string(st.Reason),
		ToolCalls:  max(sum.ToolCalls, len(calls)),
		Waste:      w, Wasted: w.Total(),
		InputTokens: sum.Usage.PromptTokens, OutputTokens: sum.Usage.CompletionTokens,
		Tokens:        sum.Usage.PromptTokens + sum.Usage.CompletionTokens,
		CostUSD:       sum.CostUSD,
		Interventions: len(sum.Interventions),
		Turns:         sum.Turns,
		DurationMS:    sum.Duration.Milliseconds(),
		answer:        st.Result,
		stopMessage:   st.Message,
	}
	if st.Err != nil {
		r.stopMessage = st.Err.Error()
	}
	for _, in := range sum.Interventions {
		if r.ByKind == nil {
			r.ByKind = map[string]int{}
		}
		r.ByKind[in.Kind]++
	}
	return r
}
