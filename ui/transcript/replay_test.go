package transcript

import (
	"context"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llm"
)

// A note keel adds to a resumed history (an undo since the last answer)
// comes before the user's next prompt in the same round: it shows as a
// note, and the prompt as the user's turn.
func TestResumedUndoNoteIsNotThePrompt(t *testing.T) {
	m := newTestTranscript()
	msg := func(role llm.Role, text string) datalog.Message {
		return datalog.Message{Msg: llm.Message{Role: role, Content: text}}
	}
	d := &datalog.SessionDetail{Rounds: []*datalog.RoundDetail{{
		Round: datalog.Round{Seq: 3, TaskSeq: 2},
		Messages: []datalog.Message{
			msg(llm.RoleUser, "[keel] The user ran keel undo since your last answer. keel undo reverted your changes to a.txt in task 1."),
			msg(llm.RoleUser, "now add a test"),
			msg(llm.RoleAssistant, "Adding it."),
		},
	}}}
	m.LoadLog(d)
	var kinds []entryKind
	var users []string
	for _, e := range m.entries {
		kinds = append(kinds, e.kind)
		if e.kind == kindUser {
			users = append(users, e.text)
		}
	}
	if len(users) != 1 || users[0] != "now add a test" {
		t.Errorf("user turns = %q, want only the prompt (kinds %v)", users, kinds)
	}
	if len(kinds) == 0 || kinds[0] != kindNotice || m.entries[0].text != "The user ran keel undo since your last answer. keel undo reverted your changes to a.txt in task 1." {
		t.Errorf("first entry = %v, want the undo note as a notice", m.entries)
	}
}

// A guard's card comes back with why it fired and what keel did, as it
// showed live (the datalog keeps both since migration 0007).
func TestResumedGuardCardKeepsWhy(t *testing.T) {
	db, sid := testDatalog(t, "/p")
	why := "turn ended with 1 changed file(s) unverified: greet.go"
	rec := datalog.RoundRecord{Round: datalog.Round{SessionID: sid, Seq: 1, TaskSeq: 1, FinishReason: "stop"},
		Messages:      []llm.Message{{Role: llm.RoleUser, Content: "fix greet"}, {Role: llm.RoleAssistant, Content: "Done."}},
		Interventions: []datalog.Intervention{{Kind: "unverified", AtToolCall: 2, Why: why, Action: "ask", Message: ""}}}
	if err := db.WriteRound(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	d, err := db.LoadTranscript(context.Background(), sid)
	if err != nil {
		t.Fatal(err)
	}
	m := newTestTranscript()
	m.LoadLog(d)
	var card *Entry
	for _, e := range m.entries {
		if e.kind == kindCard {
			card = e
		}
	}
	if card == nil || card.card.Why != why || card.card.Action != "ask" {
		t.Fatalf("card = %+v, want why %q and action ask", card, why)
	}
	if screen := screen(m, 120, 30); !strings.Contains(screen, "greet.go") {
		t.Errorf("the card's why is not on the screen:\n%s", screen)
	}
}
