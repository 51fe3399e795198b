package datalog

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"
)

// Reflection statuses.
const (
	ReflectionAnswered   = "answered"
	ReflectionUnanswered = "unanswered"
	ReflectionUnprompted = "unprompted"
)

// Reflection is the answer to one checkpoint: the model's reflect call as
// JSON (empty when unanswered), and the checkpoint's interventions row.
type Reflection struct {
	SessionID       string          `json:"session_id"`
	Round           int             `json:"round"` // the round the answer (or its absence) was seen in
	CheckpointRound int             `json:"checkpoint_round"`
	CheckpointIndex int             `json:"checkpoint_index"`
	Status          string          `json:"status"`
	Adjustment      string          `json:"adjustment,omitempty"`
	Confidence      float64         `json:"confidence"`
	JSON            json.RawMessage `json:"reflection,omitempty"`
	At              time.Time       `json:"at"`
}

// WriteReflection stores a checkpoint's answer (redacted).
func (db *DB) WriteReflection(ctx context.Context, r Reflection) error {
	js := db.red.String(string(r.JSON))
	r.Status, r.Adjustment = db.red.String(r.Status), db.red.String(r.Adjustment)
	name := fmt.Sprintf("reflection, round %d", r.Round)
	return db.submit(ctx, name, func(ctx context.Context, tx *wtx) error {
		_, err := tx.Exec(ctx, `INSERT INTO reflections (session_id, round_seq, checkpoint_round, checkpoint_idx, status,
			adjustment, confidence, json, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			r.SessionID, r.Round, r.CheckpointRound, r.CheckpointIndex, r.Status, r.Adjustment, r.Confidence, js, nanos(r.At))
		return err
	})
}

// Reflections returns a session's checkpoint answers in order.
func (db *DB) Reflections(ctx context.Context, sessionID string) ([]Reflection, error) {
	var out []Reflection
	err := eachRow(ctx, db.reader(ctx), `SELECT round_seq, checkpoint_round, checkpoint_idx, status, adjustment, confidence, json, at
		FROM reflections WHERE session_id = ? ORDER BY id`, []any{sessionID}, func(rows *sql.Rows) error {
		r := Reflection{SessionID: sessionID}
		var js string
		var at int64
		if err := rows.Scan(&r.Round, &r.CheckpointRound, &r.CheckpointIndex, &r.Status, &r.Adjustment, &r.Confidence, &js, &at); err != nil {
			return err
		}
		if js != "" {
			r.JSON = json.RawMessage(js)
		}
		r.At = fromNanos(at)
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load reflections of session %s: %w", sessionID, err)
	}
	return out, nil
}

// NoteEvent is one change of a session's working memory.
type NoteEvent struct {
	SessionID string    `json:"session_id"`
	Round     int       `json:"round"`
	Action    string    `json:"action"` // pin, update, drop, evict
	NoteID    string    `json:"note_id"`
	Text      string    `json:"text,omitempty"`
	At        time.Time `json:"at"`
}

// WriteNoteEvent stores a change of the working memory (redacted).
func (db *DB) WriteNoteEvent(ctx context.Context, e NoteEvent) error {
	text := db.red.String(e.Text)
	e.Action, e.NoteID = db.red.String(e.Action), db.red.String(e.NoteID)
	return db.submit(ctx, "note "+e.Action, func(ctx context.Context, tx *wtx) error {
		_, err := tx.Exec(ctx, `INSERT INTO memory_events (session_id, round_seq, action, note_id, text, at) VALUES (?, ?, ?, ?, ?, ?)`,
			e.SessionID, e.Round, e.Action, e.NoteID, text, nanos(e.At))
		return err
	})
}

// NoteEvents returns a session's working-memory changes in order.
func (db *DB) NoteEvents(ctx context.Context, sessionID string) ([]NoteEvent, error) {
	var out []NoteEvent
	err := eachRow(ctx, db.reader(ctx), `SELECT round_seq, action, note_id, text, at FROM memory_events
		WHERE session_id = ? ORDER BY id`, []any{sessionID}, func(rows *sql.Rows) error {
		e := NoteEvent{SessionID: sessionID}
		var at int64
		if err := rows.Scan(&e.Round, &e.Action, &e.NoteID, &e.Text, &at); err != nil {
			return err
		}
		e.At = fromNanos(at)
		out = append(out, e)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load notes of session %s: %w", sessionID, err)
	}
	return out, nil
}
