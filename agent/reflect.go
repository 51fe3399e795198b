package agent

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/keel-dev/keel/tools"
)

// ReflectToolName is the tool a checkpoint asks the model to answer with.
const ReflectToolName = "reflect"

// The adjustments a reflection may ask for; keel acts on each.
const (
	AdjustContinue  = "continue"
	AdjustReplan    = "replan"
	AdjustDecompose = "decompose"
	AdjustAskUser   = "ask_user"
	AdjustStop      = "stop"
)

// Adjustments lists the adjustments in the order the schema shows them.
func Adjustments() []string {
	return []string{AdjustContinue, AdjustReplan, AdjustDecompose, AdjustAskUser, AdjustStop}
}

// Reflection is the model's structured answer to a checkpoint (seed 004's
// ReflectionResult, seed 000's adjustments); its tags generate the reflect
// tool's schema.
type Reflection struct {
	Progress   string   `json:"progress" description:"Where the task stands: what is done and proven, in one or two sentences."`
	Evidence   []string `json:"evidence" description:"Which tool calls proved it: call ids or short descriptions such as \"go test ./... passed\"."`
	Blockers   []string `json:"blockers,omitempty" description:"What stands in the way or is still unknown."`
	NextAction string   `json:"next_action,omitempty" description:"The next concrete action: an edit, a command, or the answer."`
	Confidence float64  `json:"confidence" description:"How sure you are that the current approach reaches the goal, from 0 to 1."`
	Adjustment string   `json:"adjustment" description:"continue: go on as planned; replan: the plan no longer fits; decompose: split the active step (give sub_steps); ask_user: only the user can answer (give question); stop: stop here (give summary)."`
	SubSteps   []string `json:"sub_steps,omitempty" description:"With decompose: the active step's sub-steps, in order (2 to 8)."`
	Question   string   `json:"question,omitempty" description:"With ask_user: the one question for the user."`
	Summary    string   `json:"summary,omitempty" description:"With stop: what was done and what is left, for the user."`
}

const reflectToolDesc = `Answer a checkpoint: report progress with its evidence (the calls that proved it), blockers, the next action, your confidence (0-1) and the adjustment keel should make: continue, replan, decompose (with sub_steps), ask_user (with question) or stop (with summary). keel records it and acts on the adjustment. Call it when a checkpoint asks, or when you judge the approach needs one of these adjustments; then go on in the same turn.`

// reflectInstruction ends a checkpoint message when reflection is structured.
const reflectInstruction = `Give these answers as one reflect tool call (progress, evidence, blockers, next_action, confidence 0-1, adjustment: continue, replan, decompose, ask_user or stop), not as text, and make your next call in the same turn.`

// Validate returns "" for a reflection keel can act on, else what to fix.
func (r Reflection) Validate() string {
	switch {
	case strings.TrimSpace(r.Progress) == "":
		return "progress is required: say where the task stands"
	case len(nonEmpty(r.Evidence)) == 0:
		return `evidence is required: name the calls that show the progress (or "none yet")`
	case math.IsNaN(r.Confidence) || r.Confidence < 0 || r.Confidence > 1:
		return fmt.Sprintf("confidence is %v; give a number from 0 to 1", r.Confidence)
	case !contains(Adjustments(), r.Adjustment):
		return fmt.Sprintf("adjustment %q is unknown; use %s", r.Adjustment, orList(Adjustments()))
	case r.Adjustment != AdjustStop && strings.TrimSpace(r.NextAction) == "":
		return "next_action is required unless the adjustment is stop"
	}
	switch r.Adjustment {
	case AdjustDecompose:
		if n := len(nonEmpty(r.SubSteps)); n < 2 || n > 8 || n != len(r.SubSteps) {
			return "decompose needs sub_steps: 2 to 8 short step titles, none empty"
		}
	case AdjustAskUser:
		if strings.TrimSpace(r.Question) == "" {
			return "ask_user needs question: the one thing only the user can tell"
		}
	case AdjustStop:
		if strings.TrimSpace(r.Summary) == "" {
			return "stop needs summary: what was done and what is left"
		}
	}
	return ""
}

func nonEmpty(list []string) []string {
	var out []string
	for _, s := range list {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}

// Text renders the reflection in a few lines, for the checkpoint card,
// the datalog's reply and keel log.
func (r Reflection) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "progress: %s\n", strings.TrimSpace(r.Progress))
	fmt.Fprintf(&b, "evidence: %s\n", strings.Join(nonEmpty(r.Evidence), "; "))
	if bl := nonEmpty(r.Blockers); len(bl) > 0 {
		fmt.Fprintf(&b, "blockers: %s\n", strings.Join(bl, "; "))
	}
	if r.NextAction != "" {
		fmt.Fprintf(&b, "next: %s\n", strings.TrimSpace(r.NextAction))
	}
	fmt.Fprintf(&b, "confidence %.2f · adjustment %s", r.Confidence, r.Adjustment)
	switch r.Adjustment {
	case AdjustDecompose:
		fmt.Fprintf(&b, ": %s", strings.Join(r.SubSteps, "; "))
	case AdjustAskUser:
		fmt.Fprintf(&b, ": %s", r.Question)
	case AdjustStop:
		fmt.Fprintf(&b, ": %s", r.Summary)
	}
	return b.String()
}

// reflections holds the reflect calls of the round in flight, for the
// task to act on once the round's tools have run (reflect may run beside
// other read-only tools).
type reflections struct {
	mu   sync.Mutex
	last *Reflection
}

func (rs *reflections) put(r Reflection) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.last = &r
}

func (rs *reflections) take() *Reflection {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	r := rs.last
	rs.last = nil
	return r
}

// reflectTool is reflect bound to s: it validates and keeps the
// reflection; the task acts on it after the round's tools.
func (s *Session) reflectTool() tools.Tool {
	enums := map[string][]string{"adjustment": Adjustments()}
	return tools.NewTool(ReflectToolName, reflectToolDesc, tools.ReadOnly, enums, func(ctx context.Context, r Reflection) (tools.Result, error) {
		if msg := r.Validate(); msg != "" {
			return tools.ErrResult("reflection rejected: %s", msg), nil
		}
		if r.Adjustment == AdjustDecompose {
			if msg := s.conv.canDecompose(); msg != "" {
				return tools.ErrResult("reflection rejected: %s", msg), nil
			}
		}
		s.reflected.put(r)
		return tools.Result{Output: fmt.Sprintf("reflection recorded; keel acts on the adjustment %q after this round", r.Adjustment)}, nil
	})
}
