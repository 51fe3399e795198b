// Package statusbar is the line at the bottom of the screen: what the
// agent is doing (with the spinner, the countdown to a retry and the time
// a silent server has sent nothing, run by the spinner's ticks), the provider and model, context
// use, the session's tokens and cost (a resumed session's earlier use
// counted), tool calls and the next checkpoint; or, instead, one
// transient hint a key left ("press ctrl+c again to quit"). The Model
// owns those figures, fed from the agent's events by the root model, and
// reports them for /cost.
package statusbar

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/ui/common"
	"github.com/keel-dev/keel/ui/theme"
)

// Model shows the agent's state, provider and model, context use,
// tokens and cost, tool calls and the next checkpoint.
type Model struct {
	state     agent.State
	detail    string        // the state's detail, e.g. the halt reason
	retryIn   time.Duration // the countdown to a retry
	retryAt   time.Time     // when it ends, fixed at the first tick
	retryWhy  string        // its cause, e.g. "rate limited by openai"
	silence   silence       // a server keel waits on that sends nothing
	provider  string
	model     string
	demo      bool
	window    int // context window, tokens
	ctxTokens int
	tokensIn  int
	tokensOut int
	cost      *float64 // the session's; nil when no price is known
	// base is what a resumed session had used before this run (its
	// datalog totals); the agent counts this run's from zero.
	base struct {
		in, out int
		cost    float64
	}
	task       llm.Usage
	taskBase   float64 // the session's cost when the current task began
	toolCalls  int
	nextCheck  int
	cadence    int
	cancelling bool
	jobs       int    // background jobs running
	hint       string // one transient line, e.g. "press ctrl+c again to quit"
}

// DemoLabel names the demo's model where a provider's name would go.
const DemoLabel = "demo model (scripted, no LLM)"

// Options are what the bar shows before the agent says anything.
type Options struct {
	Provider, Model string
	ContextWindow   int  // tokens; 0 when unknown
	Cadence         int  // tool calls between checkpoints; 0 when off
	Demo            bool // the scripted demo model, not a provider
}

// New is the bar for a session's provider and model.
func New(o Options) Model {
	return Model{provider: o.Provider, model: o.Model, demo: o.Demo, window: o.ContextWindow, cadence: o.Cadence}
}

// StartUsage starts the session's figures from what it used before this
// run (a resumed session's datalog totals; zero for a new one).
func (s *Model) StartUsage(t datalog.Totals) {
	s.base.in, s.base.out, s.base.cost = t.TokensIn, t.TokensOut, t.Cost
	s.tokensIn, s.tokensOut, s.cost = t.TokensIn, t.TokensOut, nil
	s.task, s.taskBase, s.toolCalls = llm.Usage{}, 0, 0
	if t.TokensIn+t.TokensOut > 0 { // nothing used: no cost to show yet, as in a new session
		s.cost = common.LoggedCost(t.Cost, t.TokensIn+t.TokensOut)
	}
}

// EstimateContext shows tokens as the context's size until a round
// reports the server's count (a resumed session's history).
func (s *Model) EstimateContext(tokens int) { s.ctxTokens = tokens }

// SetHint shows one transient line instead of the bar ("" clears it).
func (s *Model) SetHint(h string) { s.hint = h }

// Hint is the transient line shown instead of the bar ("" when none).
func (s *Model) Hint() string { return s.hint }

// SetJobs shows how many background jobs run (none: nothing shown).
func (s *Model) SetJobs(n int) { s.jobs = n }

// SetCancelling says a cancel was asked for (or is over).
func (s *Model) SetCancelling(c bool) { s.cancelling = c }

// SetModel and setProvider change the label; "" keeps the current one.
func (s *Model) SetModel(m string) {
	if m != "" {
		s.model = m
	}
}

// SetProvider changes the provider's label; "" keeps the current one.
func (s *Model) SetProvider(p string) {
	if p != "" {
		s.provider = p
	}
}

// SetCadence shows a new checkpoint cadence; 0 drops the countdown.
func (s *Model) SetCadence(n int) {
	s.cadence = n
	if n == 0 {
		s.nextCheck = 0
	}
}

// StateChanged shows the agent's new state; leaving retrying ends the
// countdown.
func (s *Model) StateChanged(to agent.State, detail string) {
	s.state, s.detail = to, detail
	if to != agent.StateRetrying {
		s.retryIn = 0
	}
	s.silence = silence{}
}

// Retrying starts the countdown to a retry wait from now; the spinner's
// ticks run it down (tick). why is the cause ("" says nothing more).
func (s *Model) Retrying(wait time.Duration, why string) {
	s.state = agent.StateRetrying
	s.retryIn, s.retryAt, s.retryWhy = wait, time.Time{}, why
	s.silence = silence{}
}

// Tick runs the retry countdown and the silence's count at the spinner's
// tick at.
func (s *Model) Tick(at time.Time) {
	s.silence.tick(at)
	if s.retryIn <= 0 {
		return
	}
	if s.retryAt.IsZero() {
		s.retryAt = at.Add(s.retryIn)
	}
	s.retryIn = max(s.retryAt.Sub(at), 0)
}

// Compacted lowers the context figure by what /compact removed, at
// once; the next round's usage replaces the estimate.
func (s *Model) Compacted(c agent.ContextCompacted) {
	s.ctxTokens = c.Lower(s.ctxTokens)
}

// Usage takes the figures of a round that ended.
func (s *Model) Usage(u agent.UsageUpdated) {
	if u.Task == u.Round { // a task's first round: its cost starts here
		s.taskBase = 0
		if s.cost != nil {
			s.taskBase = *s.cost
		}
	}
	s.task = u.Task
	s.ctxTokens = u.ContextTokens
	if u.ContextWindow > 0 {
		s.window = u.ContextWindow
	}
	s.tokensIn, s.tokensOut = s.base.in+u.Session.PromptTokens, s.base.out+u.Session.CompletionTokens
	s.cost = nil
	if u.CostUSD != nil {
		c := s.base.cost + *u.CostUSD
		s.cost = &c
	}
	s.toolCalls = u.ToolCalls
	s.nextCheck = u.NextCheckpointIn
}

// stateText says what the agent is doing, in words.
func (s *Model) stateText() string {
	switch {
	case s.cancelling:
		return "cancelling…"
	case s.state == agent.StateRetrying && s.retryIn > 0:
		why := s.retryWhy
		if why == "" {
			why = "retry"
		}
		return fmt.Sprintf("%s — retrying in %d s", why, int(s.retryIn.Round(time.Second).Seconds()))
	case s.silence.quiet > 0:
		return s.silence.String()
	case s.state == agent.StateRetrying:
		return "retrying"
	case s.state == agent.StateHalted:
		return "halted: " + s.detail
	case s.state == agent.StateFailed:
		return "failed: " + s.detail
	case s.state == "" || s.state == agent.StateIdle:
		return "ready"
	}
	return string(s.state)
}

// Working reports whether the agent is busy (the spinner turns).
func (s *Model) Working() bool {
	switch s.state {
	case "", agent.StateIdle, agent.StateDone, agent.StateHalted, agent.StateError, agent.StateCancelled:
		return false
	}
	return true
}

// View renders one line for width columns; the right part is dropped
// piece by piece when there is no room.
func (s *Model) View(st theme.Styles, spin string, width int) string {
	if s.hint != "" {
		return st.Warn.Render(ansi.Truncate(s.hint, width, "…"))
	}
	state := s.stateText()
	if s.Working() && !s.cancelling {
		state = spin + " " + state
	}
	left := st.StatusKey.Render(state)
	var parts []string
	parts = append(parts, s.ModelLabel())
	if s.window > 0 {
		parts = append(parts, fmt.Sprintf("ctx %d%%", s.ctxTokens*100/s.window))
	}
	tok := fmt.Sprintf("%s in · %s out", common.Tokens(s.tokensIn), common.Tokens(s.tokensOut))
	if s.cost != nil {
		tok += " · " + common.Cost(s.cost)
	}
	parts = append(parts, tok, common.Plural(s.toolCalls, "call"))
	if s.jobs > 0 {
		parts = append(parts, common.Plural(s.jobs, "job")+" running")
	}
	if s.nextCheck > 0 {
		parts = append(parts, "checkpoint in "+common.Plural(s.nextCheck, "call"))
	}
	for len(parts) > 0 {
		right := st.Status.Render(strings.Join(parts, " │ "))
		gap := width - ansi.StringWidth(left) - ansi.StringWidth(right)
		if gap >= 2 {
			return left + strings.Repeat(" ", gap) + right
		}
		parts = parts[:len(parts)-1]
	}
	return ansi.Truncate(left, width, "…")
}

// ModelLabel is the provider and model as the bar names them.
func (s *Model) ModelLabel() string {
	if s.demo {
		return DemoLabel
	}
	switch {
	case s.provider != "" && s.model != "":
		return s.provider + "/" + s.model
	case s.model != "":
		return s.model
	}
	return s.provider
}

// taskCost is the current (or last) task's cost: what the session's grew
// by since the task began; nil when no price is known.
func (s *Model) taskCost() *float64 {
	if s.cost == nil {
		return nil
	}
	c := *s.cost - s.taskBase
	return &c
}

// CostReport is /cost's answer: the tokens and cost of the current (or
// last) task and of the session, from the figures the bar keeps.
func (s *Model) CostReport() string {
	if s.tokensIn == 0 && s.tokensOut == 0 {
		return "cost: no tokens used yet in this session"
	}
	line := func(label string, u llm.Usage, cost *float64) string {
		return fmt.Sprintf("%-8s %s in · %s out · %s", label, common.Thousands(u.PromptTokens), common.Thousands(u.CompletionTokens), common.Cost(cost))
	}
	lines := []string{"cost",
		line("task", s.task, s.taskCost()),
		line("session", llm.Usage{PromptTokens: s.tokensIn, CompletionTokens: s.tokensOut}, s.cost)}
	if s.cost == nil {
		lines = append(lines, "no price is configured for this model: set input_price_per_mtok and output_price_per_mtok in its [providers.NAME]")
	}
	return strings.Join(lines, "\n")
}
