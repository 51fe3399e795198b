package datalog

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/keel-dev/keel/agent/llm"
)

// SessionDetail is a session with its rounds, for keel log show and the
// TUI browser.
type SessionDetail struct {
	Session Session        `json:"session"`
	Rounds  []*RoundDetail `json:"rounds"`
	// Unfinished are calls that started and whose round was never
	// committed: keel was killed while they ran.
	Unfinished []Intent `json:"unfinished_calls,omitempty"`
	// Tail says Rounds are only the session's last ones
	// (LoadTranscriptTail).
	Tail bool `json:"tail,omitempty"`
}

// RoundDetail is one round with what it produced. FileChanges carry no
// contents here; TaskFileChanges loads them.
type RoundDetail struct {
	Round         Round             `json:"round"`
	Messages      []Message         `json:"messages"`
	ToolCalls     []ToolCall        `json:"tool_calls"`
	Interventions []Intervention    `json:"interventions"`
	Plans         []PlanSnapshot    `json:"plans"`
	Transitions   []StateTransition `json:"transitions"`
	FileChanges   []FileChange      `json:"file_changes"`
	Reflections   []Reflection      `json:"reflections,omitempty"`
}

// LoadSession loads a session and all its rounds.
func (db *DB) LoadSession(ctx context.Context, id string) (*SessionDetail, error) {
	return db.LoadRounds(ctx, id, 1, math.MaxInt32)
}

// LoadRounds loads a session and its rounds numbered first..last, so a
// browser can page through a long session.
func (db *DB) LoadRounds(ctx context.Context, id string, first, last int) (*SessionDetail, error) {
	s, err := db.GetSession(ctx, id)
	if err != nil {
		return nil, err
	}
	tx, err := db.reader(ctx).BeginTx(ctx, &sql.TxOptions{ReadOnly: true}) // one snapshot for all tables
	if err != nil {
		return nil, fmt.Errorf("load session %s: %w", id, err)
	}
	defer tx.Rollback()
	l := &loader{tx: tx, id: id, first: first, last: last, byRound: map[int]*RoundDetail{}}
	d := &SessionDetail{Session: s}
	steps := []func(context.Context) error{l.rounds, l.messages, l.toolCalls, l.interventions,
		l.plans, l.transitions, l.fileChanges, l.reflections}
	for _, step := range steps {
		if err := step(ctx); err != nil {
			return nil, fmt.Errorf("load session %s: %w", id, err)
		}
	}
	d.Rounds = l.order
	if d.Unfinished, err = db.Intents(ctx, id); err != nil {
		return nil, err
	}
	return d, nil
}

// LoadHistory returns the conversation as it would be sent next: the
// messages of the latest history epoch, each exactly as stored. An
// assistant tool call left without a result (keel died while it ran)
// gets an "interrupted" tool result so the request is valid.
func (db *DB) LoadHistory(ctx context.Context, id string) ([]llm.Message, error) {
	rows, err := db.reader(ctx).QueryContext(ctx, `SELECT seq, round_seq, epoch, json FROM messages
		WHERE session_id = ? AND epoch = (SELECT COALESCE(MAX(epoch), 0) FROM messages WHERE session_id = ?)
		ORDER BY seq`, id, id)
	if err != nil {
		return nil, fmt.Errorf("load history of session %s: %w", id, err)
	}
	defer rows.Close()
	var out []Message
	for rows.Next() {
		m, err := scanMessage(rows, id)
		if err != nil {
			return nil, fmt.Errorf("load history of session %s: %w", id, err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	intents, err := db.Intents(ctx, id)
	if err != nil {
		return nil, err
	}
	hist := append(llmMessages(closeInterrupted(out)), unfinishedTurns(intents)...)
	if err := fillImages(ctx, db.reader(ctx), hist); err != nil {
		return nil, fmt.Errorf("load history of session %s: %w", id, err)
	}
	return hist, nil
}

func scanMessage(sc scanner, sid string) (Message, error) {
	m := Message{SessionID: sid}
	var js string
	if err := sc.Scan(&m.Seq, &m.Round, &m.Epoch, &js); err != nil {
		return m, err
	}
	m.JSON = json.RawMessage(js)
	if err := json.Unmarshal(m.JSON, &m.Msg); err != nil {
		return m, fmt.Errorf("message %d: %w", m.Seq, err)
	}
	return m, nil
}

// RoundTaskSeq returns the task of session id's round seq; 0 when there
// is no such round.
func (db *DB) RoundTaskSeq(ctx context.Context, id string, seq int) (int, error) {
	var task int
	err := db.reader(ctx).QueryRowContext(ctx, `SELECT task_seq FROM rounds WHERE session_id = ? AND seq = ?`, id, seq).Scan(&task)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("load round %d of session %s: %w", seq, id, err)
	}
	return task, nil
}

// LatestPlan returns the session's last plan snapshot, or nil.
func (db *DB) LatestPlan(ctx context.Context, id string) (*PlanSnapshot, error) {
	p := PlanSnapshot{SessionID: id}
	var js string
	var at int64
	err := db.reader(ctx).QueryRowContext(ctx, `SELECT round_seq, attempt, status, json, at FROM plan_snapshots
		WHERE session_id = ? ORDER BY id DESC LIMIT 1`, id).Scan(&p.Round, &p.Attempt, &p.Status, &js, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load plan of session %s: %w", id, err)
	}
	p.Plan, p.At = json.RawMessage(js), fromNanos(at)
	return &p, nil
}

// TaskFileChanges returns the not yet undone file changes of the
// session's last task that has any, oldest first, with their contents,
// ready for undo: journaled changes whose round never committed (keel
// was stopped while making them) are Pending, and a change whose content
// before (or path) was stored redacted because it held a secret says so
// in Withheld, so undo never writes a redaction mark. Undo reverts them,
// then calls FinishUndo.
func (db *DB) TaskFileChanges(ctx context.Context, sessionID string) ([]FileChange, error) {
	return db.fileChangesWhere(ctx, `session_id = ? AND undone_at IS NULL AND task_seq = (SELECT MAX(task_seq)
		FROM file_changes WHERE session_id = ? AND undone_at IS NULL)`, sessionID, sessionID)
}

// fileChangeColumns are what fileChangesWhere reads, in scanFileChange's
// order.
const fileChangeColumns = `id, session_id, round_seq, task_seq, tool_call_id, path, existed, before, before_enc,
	after, after_enc, mode, before_sha256, after_sha256, path_redacted, before_redacted, after_redacted, by_command,
	splices, splices_redacted, state, new_dirs`

// fileChangesWhere loads the file changes matching where, oldest first,
// with their contents decoded and Withheld set.
func (db *DB) fileChangesWhere(ctx context.Context, where string, args ...any) ([]FileChange, error) {
	rows, err := db.reader(ctx).QueryContext(ctx, `SELECT `+fileChangeColumns+` FROM file_changes WHERE `+where+` ORDER BY id`, args...)
	if err != nil {
		return nil, fmt.Errorf("load file changes: %w", err)
	}
	defer rows.Close()
	var out []FileChange
	for rows.Next() {
		fc, err := scanFileChange(rows)
		if err != nil {
			return nil, fmt.Errorf("load file changes: %w", err)
		}
		out = append(out, fc)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load file changes: %w", err)
	}
	withhold(out)
	return out, nil
}

// scanFileChange reads one row of fileChangeColumns and decodes its
// contents.
func scanFileChange(sc scanner) (FileChange, error) {
	var fc FileChange
	var mode int64
	var splices, benc, aenc, state, dirs string
	if err := sc.Scan(&fc.ID, &fc.SessionID, &fc.Round, &fc.TaskSeq, &fc.ToolCallID, &fc.Path, &fc.Existed,
		&fc.Before, &benc, &fc.After, &aenc, &mode, &fc.BeforeSHA256, &fc.AfterSHA256,
		&fc.PathRedacted, &fc.BeforeRedacted, &fc.AfterRedacted, &fc.ByCommand, &splices, &fc.SplicesRedacted, &state, &dirs); err != nil {
		return fc, err
	}
	if dirs != "" {
		fc.NewDirs = strings.Split(dirs, "\n")
	}
	if splices != "" {
		fc.Splices = json.RawMessage(splices)
	}
	fc.Mode, fc.Pending = uint32(mode), state == "pending"
	var err error
	if fc.Before, err = decodeContent(fc.Before, benc, nil); err != nil {
		return fc, fmt.Errorf("the content before of %s: %w", fc.Path, err)
	}
	if fc.After, err = decodeContent(fc.After, aenc, fc.Before); err != nil {
		return fc, fmt.Errorf("the content after of %s: %w", fc.Path, err)
	}
	return fc, nil
}

// LoadBodies returns the raw request and response bodies of a round, if
// they were captured.
func (db *DB) LoadBodies(ctx context.Context, sessionID string, round int) (req, resp []byte, err error) {
	err = db.reader(ctx).QueryRowContext(ctx, `SELECT request, response FROM bodies WHERE session_id = ? AND round_seq = ?`,
		sessionID, round).Scan(&req, &resp)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, nil
	}
	return req, resp, err
}
