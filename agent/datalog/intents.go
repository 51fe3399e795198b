package datalog

import (
	"context"
	"fmt"

	"github.com/keel-dev/keel/agent/llm"
)

// UnknownOutcome is the tool result a resumed history gives a call that
// was running when keel was killed.
const UnknownOutcome = "started, outcome unknown: keel was stopped while this call ran. " +
	"It may have changed files: check them before going on."

// Intents returns the calls of a session that started and never had
// their round committed (keel was killed while they ran), oldest first.
func (db *DB) Intents(ctx context.Context, id string) ([]Intent, error) {
	rows, err := db.reader(ctx).QueryContext(ctx, `SELECT round_seq, call_id, name, arguments, started_at
		FROM call_intents WHERE session_id = ? ORDER BY round_seq, started_at`, id)
	if err != nil {
		return nil, fmt.Errorf("load unfinished calls of session %s: %w", id, err)
	}
	defer rows.Close()
	var out []Intent
	for rows.Next() {
		in := Intent{SessionID: id}
		var started int64
		if err := rows.Scan(&in.Round, &in.CallID, &in.Name, &in.Arguments, &started); err != nil {
			return nil, err
		}
		in.Started = fromNanos(started)
		out = append(out, in)
	}
	return out, rows.Err()
}

// unfinishedTurns are the messages a resumed history gains for calls
// killed while they ran: per round, the assistant's calls and, for
// each, the UnknownOutcome result, so the model knows to check.
func unfinishedTurns(intents []Intent) []llm.Message {
	var out []llm.Message
	for i := 0; i < len(intents); {
		j := i
		var calls []llm.ToolCall
		for ; j < len(intents) && intents[j].Round == intents[i].Round; j++ {
			calls = append(calls, llm.ToolCall{ID: intents[j].CallID, Name: intents[j].Name, Arguments: intents[j].Arguments})
		}
		out = append(out, llm.Message{Role: llm.RoleAssistant, ToolCalls: calls})
		for _, c := range calls {
			out = append(out, llm.Message{Role: llm.RoleTool, Content: UnknownOutcome, ToolCallID: c.ID, Name: c.Name})
		}
		i = j
	}
	return out
}
