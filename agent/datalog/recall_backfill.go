package datalog

import (
	"context"
	"database/sql"
	"fmt"
	"sort"

	"github.com/keel-dev/keel/agent/llm"
)

// backfillBatch is how many sessions the backfill loads at a time.
const backfillBatch = 256

// backfillRecall indexes the sessions stored before recall existed, in
// the transaction of migration 0006: their rounds are read back as stored
// (redacted already) and go through the same roundDocs as a new round,
// and the same rules keep one prompt per task and a text once per
// session. The documents gather in a temporary table and enter
// recall_docs in one statement: FTS5 flushes its pending terms at every
// statement, so row by row would write a segment per document.
func backfillRecall(ctx context.Context, tx *sql.Tx) error {
	ids, err := allSessionIDs(ctx, tx)
	if err != nil || len(ids) == 0 {
		return err
	}
	if _, err := tx.ExecContext(ctx, `CREATE TEMP TABLE recall_backfill (session_id TEXT, round_seq INTEGER,
		task_seq INTEGER, kind TEXT, at INTEGER, text TEXT)`); err != nil {
		return err
	}
	ins, err := tx.PrepareContext(ctx, `INSERT INTO temp.recall_backfill VALUES (?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer ins.Close()
	for start := 0; start < len(ids); start += backfillBatch {
		batch := ids[start:min(start+backfillBatch, len(ids))]
		if err := backfillBatchOf(ctx, tx, ins, batch[0], batch[len(batch)-1]); err != nil {
			return fmt.Errorf("index past sessions for recall: %w", err)
		}
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO recall_docs (session_id, round_seq, task_seq, kind, at, text, scope)
		SELECT b.session_id, b.round_seq, b.task_seq, b.kind, b.at, b.text, 'p' || hex(s.project_root)
		FROM temp.recall_backfill b JOIN sessions s ON s.id = b.session_id ORDER BY b.rowid;
		DROP TABLE temp.recall_backfill`)
	return err
}

// backfillBatchOf derives the documents of the sessions with ids in
// [lo, hi] into the temporary table.
func backfillBatchOf(ctx context.Context, tx *sql.Tx, ins *sql.Stmt, lo, hi string) error {
	rounds, err := loadBackfill(ctx, tx, lo, hi)
	if err != nil {
		return err
	}
	var seen docSet
	for _, r := range rounds {
		sid := r.rec.Round.SessionID
		for _, d := range roundDocs(r.rec, r.msgs, 0) {
			if !seen.add(sid, d) {
				continue
			}
			if _, err := ins.ExecContext(ctx, sid, d.round, d.task, d.kind, d.at, d.text); err != nil {
				return err
			}
		}
	}
	return nil
}

func allSessionIDs(ctx context.Context, tx *sql.Tx) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id FROM sessions ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// bfRound is a stored round as the backfill reads it back: the records
// roundDocs looks at, and only those.
type bfRound struct {
	rec  RoundRecord
	msgs []llm.Message
}

// bfKey orders rounds by session, then round.
type bfKey struct {
	sid   string
	round int
}

// backfillLoader reads the rounds of the sessions with ids in [lo, hi].
type backfillLoader struct {
	tx     *sql.Tx
	lo, hi string
	rounds map[bfKey]*bfRound
}

// loadBackfill returns the rounds of the sessions with ids in [lo, hi],
// in session and round order.
func loadBackfill(ctx context.Context, tx *sql.Tx, lo, hi string) ([]*bfRound, error) {
	l := &backfillLoader{tx: tx, lo: lo, hi: hi, rounds: map[bfKey]*bfRound{}}
	for _, step := range []func(context.Context) error{l.roundRows, l.messages, l.toolCalls, l.plans} {
		if err := step(ctx); err != nil {
			return nil, err
		}
	}
	keys := make([]bfKey, 0, len(l.rounds))
	for k := range l.rounds {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].sid != keys[j].sid {
			return keys[i].sid < keys[j].sid
		}
		return keys[i].round < keys[j].round
	})
	out := make([]*bfRound, len(keys))
	for i, k := range keys {
		out[i] = l.rounds[k]
	}
	return out, nil
}

// round returns the round (sid, seq), made empty when it has no row.
func (l *backfillLoader) round(sid string, seq int) *bfRound {
	k := bfKey{sid, seq}
	r := l.rounds[k]
	if r == nil {
		r = &bfRound{rec: RoundRecord{Round: Round{SessionID: sid, Seq: seq}}}
		l.rounds[k] = r
	}
	return r
}

// each runs q over the loader's id range and scan on every row.
func (l *backfillLoader) each(ctx context.Context, q string, scan func(*sql.Rows) error) error {
	return eachRow(ctx, l.tx, q, []any{l.lo, l.hi}, scan)
}

func (l *backfillLoader) roundRows(ctx context.Context) error {
	return l.each(ctx, `SELECT session_id, seq, task_seq, started_at FROM rounds
		WHERE session_id BETWEEN ? AND ?`, func(rows *sql.Rows) error {
		var sid string
		var seq, task int
		var started int64
		if err := rows.Scan(&sid, &seq, &task, &started); err != nil {
			return err
		}
		r := l.round(sid, seq)
		r.rec.Round.TaskSeq, r.rec.Round.Started = task, fromNanos(started)
		return nil
	})
}

// messages reads the user and assistant messages in order, decoded in
// SQL so tool results (the bulk of the table) never leave SQLite; the
// writer marshals llm.Message, whose role comes first, so a prefix test
// passes over tool results without parsing them. A round whose messages
// start a new epoch replaced the history.
func (l *backfillLoader) messages(ctx context.Context) error {
	return l.each(ctx, `SELECT session_id, round_seq, epoch, role, content, calls FROM (
		SELECT session_id, seq, round_seq, epoch,
			CASE WHEN json_valid(json) THEN json_extract(json, '$.role') END AS role,
			CASE WHEN json_valid(json) THEN substr(json_extract(json, '$.content'), 1, 16384) END AS content,
			CASE WHEN json_valid(json) THEN COALESCE(json_array_length(json, '$.tool_calls'), 0) END AS calls
		FROM messages WHERE session_id BETWEEN ? AND ?
			AND (json LIKE '{"role":"user"%' OR json LIKE '{"role":"assistant"%'))
		WHERE role IN ('user', 'assistant') ORDER BY session_id, seq`, func(rows *sql.Rows) error {
		var sid, role string
		var content sql.NullString
		var round, epoch, calls int
		if err := rows.Scan(&sid, &round, &epoch, &role, &content, &calls); err != nil {
			return err
		}
		r := l.round(sid, round)
		r.rec.HistoryReset = r.rec.HistoryReset || (epoch == round && round > 0)
		r.msgs = append(r.msgs, llm.Message{Role: llm.Role(role), Content: content.String, ToolCalls: make([]llm.ToolCall, calls)})
		return nil
	})
}

func (l *backfillLoader) toolCalls(ctx context.Context) error {
	return l.each(ctx, `SELECT session_id, round_seq, name, arguments FROM tool_calls
		WHERE session_id BETWEEN ? AND ? ORDER BY session_id, round_seq, idx`, func(rows *sql.Rows) error {
		var c ToolCall
		if err := rows.Scan(&c.SessionID, &c.Round, &c.Name, &c.Arguments); err != nil {
			return err
		}
		r := l.round(c.SessionID, c.Round)
		r.rec.ToolCalls = append(r.rec.ToolCalls, c)
		return nil
	})
}

func (l *backfillLoader) plans(ctx context.Context) error {
	return l.each(ctx, `SELECT session_id, round_seq, json FROM plan_snapshots
		WHERE session_id BETWEEN ? AND ? ORDER BY session_id, id`, func(rows *sql.Rows) error {
		var p PlanSnapshot
		var js string
		if err := rows.Scan(&p.SessionID, &p.Round, &js); err != nil {
			return err
		}
		p.Plan = []byte(js)
		r := l.round(p.SessionID, p.Round)
		r.rec.Plans = append(r.rec.Plans, p)
		return nil
	})
}
