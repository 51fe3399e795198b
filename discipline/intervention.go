package discipline

import (
	"fmt"
	"sort"
	"strings"
)

// Kind names the rule that fired, as the UI, the datalog and headless JSON
// report it.
type Kind string

// The kinds every rule shares, exactly as they appear in the datalog and
// headless JSON; each guard declares its own kind in its file.
const (
	KindReflection Kind = "reflection" // the scheduled checkpoint
	KindHalt       Kind = "halt"       // any guard's stop (or question)
)

// Action is what the agent does with an intervention.
type Action string

// Actions, from mildest to strongest.
const (
	Inject Action = "inject" // send Message to the model before the next request
	Ask    Action = "ask"    // pause and ask the user: continue, stop or guidance
	Halt   Action = "halt"   // stop the task with StopReason
)

// Stop reasons an Ask or Halt carries.
const (
	StopLoopDetected = "loop_detected" // a guard caught a loop
	StopPlanFailed   = "plan_failed"   // the model kept ending its turn with plan steps open
)

// Intervention is one rule stepping in.
type Intervention struct {
	Kind       Kind
	AtToolCall int    // the task's tool-call count when it fired
	Message    string // text for the model
	// Note is the finding in one sentence (fact and what to do), used in
	// place of Message when several findings share one message.
	Note string
	// Folded reports that the finding's Note went into the round's
	// checkpoint, so Merge does not send its Message again.
	Folded     bool
	Why        string // one human line with the figures, for the UI card
	Figures    map[string]int
	Action     Action
	StopReason string // set for Ask and Halt: the reason if the task stops
	// Replan reports a stop the agent may turn into a replan when a plan
	// step is active (a tool loop: another plan may avoid it). Stops by
	// repeated answers and the plan rule's own stop never replan: a model
	// repeating itself would answer the replan the same way, and the task
	// must not end "completed" after it.
	Replan bool
}

// String renders the intervention for logs: kind, call, action and why.
func (in Intervention) String() string {
	return fmt.Sprintf("%s@%d %s: %s", in.Kind, in.AtToolCall, in.Action, in.Why)
}

// Decision is what the agent does after a round, with precedence applied.
type Decision struct {
	// Halt, when set, stops the task with Halt.StopReason; nothing is
	// injected and any ask is dropped.
	Halt *Intervention
	// Ask, when set (and Halt is not), pauses for the user. If the user
	// lets the task continue, Inject (plus any guidance) is sent.
	Ask *Intervention
	// Inject is the single message for the next request ("" for none).
	Inject string
	// Shown is every intervention that fired, in merge order, for the UI
	// cards and the datalog, including those a halt overrode. A finding
	// sent as a note (see Merge) carries that note as its Message.
	Shown []Intervention
}

// Decide applies the precedence halt > ask > inject to one round's
// interventions and merges the injected ones into one message. Among
// stops, the plan rule's (plan_failed) wins over a loop's: the documented
// outcome of a model that keeps ending its turn with steps open.
func Decide(ins []Intervention) Decision {
	d := Decision{Shown: sorted(ins)}
	for i := range d.Shown {
		in := &d.Shown[i]
		switch in.Action {
		case Halt:
			d.Halt = firstStop(d.Halt, in)
		case Ask:
			d.Ask = firstStop(d.Ask, in)
		}
	}
	if d.Halt != nil {
		d.Ask = nil
		return d
	}
	d.Inject = Merge(d.Shown)
	sentAsNotes(d.Shown)
	return d
}

// firstStop keeps the earlier stop unless the later one is the plan
// rule's and the earlier is not.
func firstStop(have, in *Intervention) *Intervention {
	if have == nil || (in.StopReason == StopPlanFailed && have.StopReason != StopPlanFailed) {
		return in
	}
	return have
}

// sentAsNotes sets the Message of each finding that went to the model as
// its note (folded into a checkpoint, or one of several in a list) to that
// note, so a card shows what was sent.
func sentAsNotes(shown []Intervention) {
	several := 0
	for _, in := range shown {
		if in.Action == Inject && in.Message != "" && !in.Folded {
			several++
		}
	}
	for i := range shown {
		in := &shown[i]
		if in.Action == Inject && in.Message != "" && (in.Folded || several > 1) {
			in.Message = in.note()
		}
	}
}

// Merge builds the one message a round may send from its inject-action
// interventions, in precedence order: one finding is sent as its Message;
// several become one short list of their Notes, not a concatenation of
// messages. Findings folded into a checkpoint are already in its text.
func Merge(ins []Intervention) string {
	var send []Intervention
	for _, in := range sorted(ins) {
		if in.Action == Inject && in.Message != "" && !in.Folded {
			send = append(send, in)
		}
	}
	switch len(send) {
	case 0:
		return ""
	case 1:
		return send[0].Message
	}
	var b strings.Builder
	b.WriteString("Notes from keel:")
	for _, in := range send {
		b.WriteString("\n- " + in.note())
	}
	return b.String()
}

// note is the one-sentence form of a finding (its Message if it has none).
func (in Intervention) note() string {
	if in.Note != "" {
		return in.Note
	}
	return in.Message
}

// sorted returns a copy ordered by rank (the sharpest structural facts
// first, the checkpoint's questions last so they end the message), stable
// within a kind.
func sorted(ins []Intervention) []Intervention {
	out := append([]Intervention(nil), ins...)
	sort.SliceStable(out, func(i, j int) bool { return rankOf(out[i].Kind) < rankOf(out[j].Kind) })
	return out
}
