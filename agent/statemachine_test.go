package agent

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
)

func TestTransitionTable(t *testing.T) {
	for from, tos := range transitions {
		if !slices.Contains(States(), from) {
			t.Errorf("state %s has transitions but is not in States()", from)
		}
		for _, to := range tos {
			if !slices.Contains(States(), to) {
				t.Errorf("%s → %s: %s is not a state", from, to, to)
			}
		}
	}
	for _, s := range States() {
		if _, ok := transitions[s]; !ok {
			t.Errorf("state %s has no row in the table", s)
		}
		if !s.Terminal() && s != StateIdle && !ValidTransition(s, StateCancelled) {
			t.Errorf("a running state, %s, cannot be cancelled", s)
		}
	}
}

func TestValidTransition(t *testing.T) {
	cases := []struct {
		from, to State
		want     bool
	}{
		{StateIdle, StateRecognizing, true},
		{StateRecognizing, StatePlanning, true},
		{StatePlanning, StateExecuting, true},
		{StateExecuting, StateObserving, true},
		{StateObserving, StateReflecting, true},
		{StateReflecting, StateExecuting, true},
		{StateObserving, StateReplanning, true},
		{StateReplanning, StatePlanning, true},
		{StateExecuting, StateSynthesizing, true},
		{StateSynthesizing, StateDone, true},
		{StateDone, StateRecognizing, true},
		{StateRetrying, StateReflecting, true},
		{StateExecuting, StateExecuting, true}, // staying is no transition
		// 004 forbids these, and so does keel.
		{StateIdle, StateExecuting, false},
		{StateIdle, StateDone, false},
		{StateDone, StateExecuting, false},
		{StateSynthesizing, StateReflecting, false},
		{StatePlanning, StateSynthesizing, false},
		{StateObserving, StateDone, false},
		{StateHalted, StateDone, false},
		{StateRetrying, StateDone, false},
		{StateIdle, StateHalted, false},
	}
	for _, c := range cases {
		if got := ValidTransition(c.from, c.to); got != c.want {
			t.Errorf("ValidTransition(%s, %s) = %v, want %v", c.from, c.to, got, c.want)
		}
	}
}

// An invalid transition still happens, and is an internal error: an
// event, the session's count, and the hook.
func TestInvalidTransitionIsAnInternalError(t *testing.T) {
	var heard []string
	s, _ := newSession(t, llmtest.Rounds(), func(o *Options) {
		o.OnInternalError = func(what string) { heard = append(heard, what) }
	})
	s.setState(StateDone, "")
	if s.currentState() != StateDone || s.InternalErrors() != 1 || len(heard) != 1 || !strings.Contains(heard[0], "idle → done") {
		t.Fatalf("state %s, errors %d, heard %q", s.currentState(), s.InternalErrors(), heard)
	}
	var got []Event
	for len(got) < 2 {
		got = append(got, <-s.Events())
	}
	if len(eventsOf[InternalError](got)) != 1 {
		t.Errorf("events = %s", describe(got))
	}
	s.setState(StateRecognizing, "")
	if s.InternalErrors() != 1 {
		t.Errorf("a valid transition counted as an error")
	}
}

// A task's transitions follow the table from idle to its end state.
func TestTaskWalksTheTable(t *testing.T) {
	s, _ := planSession(t,
		planCall("g", "look=active", "answer=pending"),
		llmtest.ToolRound(call("", "echo", `{"path":"a"}`)),
		planCall("g", "look=completed", "answer=completed"),
		llmtest.TextRound("done"),
	)
	evs, st := runTask(t, context.Background(), s, "go")
	if st.Reason != StopCompleted {
		t.Fatalf("stop %s: %s", st.Reason, st.Message)
	}
	var path []string
	for _, sc := range eventsOf[StateChanged](evs) {
		if !ValidTransition(sc.From, sc.To) {
			t.Errorf("invalid %s → %s", sc.From, sc.To)
		}
		path = append(path, string(sc.To))
	}
	want := "recognizing_intent executing planning observing executing observing executing planning observing executing synthesizing done"
	if got := strings.Join(path, " "); got != want {
		t.Errorf("path\n got %s\nwant %s", got, want)
	}
}

// docs/ARCHITECTURE.md carries the table's diagram as Mermaid() renders it.
func TestArchitectureDiagramMatchesTable(t *testing.T) {
	doc, err := os.ReadFile("../docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	block := "```mermaid\n" + Mermaid() + "```"
	if !strings.Contains(string(doc), block) {
		t.Errorf("docs/ARCHITECTURE.md lacks the state diagram of the table; put this block in it:\n%s", block)
	}
}
