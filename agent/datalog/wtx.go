package datalog

import (
	"context"
	"database/sql"
	"strings"
)

// stmtID names one of the writer's fixed statements.
type stmtID int

// The statements of the per-round write path (and the small per-task
// ones). The writer prepares them once per connection, in its idle time
// after the first write, so a round does not make SQLite parse its SQL
// again; until then, and after a failure drops the connection, they run
// as plain text.
const (
	stInsertRound stmtID = iota
	stMaxSeq
	stMaxEpoch
	stDataVersion
	stInsertMessage
	stInsertToolCall
	stInsertIntervention
	stInsertPlan
	stInsertTransition
	stInsertFileChange
	stInsertBody
	stAddTotals
	stInsertSession
	stSetFirstPrompt
	stEndSession
	stEndTotals
	stReopenSession
	stInterventionReply
	stInsertIntent
	stDeleteIntents
	stInsertRecall
	// Several rows in one statement (rowsSQL): a round's messages and
	// transitions, which come two and three at a time.
	stInsertMessages2
	stInsertMessages3
	stInsertTransitions2
	stInsertTransitions3
	numStmts
)

// messageInserts and transitionInserts name the statement that inserts n
// rows at index n (insertRows).
var (
	messageInserts    = []stmtID{1: stInsertMessage, 2: stInsertMessages2, 3: stInsertMessages3}
	transitionInserts = []stmtID{1: stInsertTransition, 2: stInsertTransitions2, 3: stInsertTransitions3}
)

var stmtSQL = withRows(singleSQL)

// withRows adds to sql the statements that insert several rows, made from
// each family's one-row statement.
func withRows(sql [numStmts]string) [numStmts]string {
	for _, family := range [][]stmtID{messageInserts, transitionInserts} {
		for n := 2; n < len(family); n++ {
			sql[family[n]] = rowsSQL(sql[family[1]], n)
		}
	}
	return sql
}

// rowsSQL repeats the VALUES tuple of a one-row INSERT n times.
func rowsSQL(one string, n int) string {
	i := strings.LastIndex(one, "VALUES")
	tuple := strings.TrimSpace(one[i+len("VALUES"):])
	return one + strings.Repeat(", "+tuple, n-1)
}

// insertRows inserts rows, each of the same columns, with as few
// statements of family as it takes.
func (t *wtx) insertRows(ctx context.Context, family []stmtID, rows [][]any) error {
	for len(rows) > 0 {
		n := min(len(rows), len(family)-1)
		args := make([]any, 0, n*len(rows[0]))
		for _, r := range rows[:n] {
			args = append(args, r...)
		}
		if _, err := t.exec(ctx, family[n], args...); err != nil {
			return err
		}
		rows = rows[n:]
	}
	return nil
}

var singleSQL = [numStmts]string{
	stInsertRound: `INSERT INTO rounds (session_id, seq, task_seq, request_messages,
		request_tokens, first_token_ns, duration_ns, finish_reason, tokens_in, tokens_out, tokens_cached,
		cost, retries, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	// Two queries, not one: SQLite answers a lone MAX from an index
	// without scanning the session's messages.
	stMaxSeq:      `SELECT COALESCE(MAX(seq), 0) FROM messages WHERE session_id = ?`,
	stMaxEpoch:    `SELECT COALESCE(MAX(epoch), 0) FROM messages WHERE session_id = ?`,
	stDataVersion: `PRAGMA data_version`,
	stInsertMessage: `INSERT INTO messages (session_id, seq, round_seq, epoch, json)
		VALUES (?, ?, ?, ?, ?)`,
	stInsertToolCall: `INSERT INTO tool_calls (session_id, round_seq, idx, call_id, name,
		arguments, result, result_size, is_error, duration_ns, permission, decided_by, verified)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	stInsertIntervention: `INSERT INTO interventions (session_id, round_seq, idx, kind,
		at_tool_call, figures_json, message, reply, why, action) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	stInsertPlan: `INSERT INTO plan_snapshots (session_id, round_seq, attempt, status,
		json, at) VALUES (?, ?, ?, ?, ?, ?)`,
	stInsertTransition: `INSERT INTO state_transitions (session_id, round_seq, from_state,
		to_state, detail, at) VALUES (?, ?, ?, ?, ?, ?)`,
	stInsertFileChange: `INSERT INTO file_changes (session_id, round_seq, task_seq,
		tool_call_id, path, existed, before, before_enc, after, after_enc, mode, before_sha256, after_sha256,
		path_redacted, before_redacted, after_redacted, by_command, splices, splices_redacted)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	stInsertBody: `INSERT INTO bodies (session_id, round_seq, request, response)
		VALUES (?, ?, ?, ?)`,
	stAddTotals: `UPDATE sessions SET rounds = rounds + 1, tool_calls = tool_calls + ?,
		tokens_in = tokens_in + ?, tokens_out = tokens_out + ?, tokens_cached = tokens_cached + ?,
		cost = cost + ? WHERE id = ?`,
	stInsertSession: `INSERT INTO sessions
			(id, project_root, cwd, git_branch, provider, model, config_json, first_prompt, started_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	stSetFirstPrompt: `UPDATE sessions SET first_prompt = ? WHERE id = ? AND first_prompt = ''`,
	stEndSession:     `UPDATE sessions SET ended_at = ?, stop_reason = ? WHERE id = ?`,
	stEndTotals: `UPDATE sessions SET rounds = MAX(rounds, ?), tool_calls = MAX(tool_calls, ?),
			tokens_in = MAX(tokens_in, ?), tokens_out = MAX(tokens_out, ?),
			tokens_cached = MAX(tokens_cached, ?), cost = MAX(cost, ?) WHERE id = ?`,
	stReopenSession: `UPDATE sessions SET ended_at = NULL, stop_reason = '' WHERE id = ?`,
	stInterventionReply: `UPDATE interventions SET reply = ?
			WHERE session_id = ? AND round_seq = ? AND idx = ?`,
	stInsertIntent: `INSERT OR REPLACE INTO call_intents (session_id, round_seq, call_id, name,
			arguments, started_at) VALUES (?, ?, ?, ?, ?, ?)`,
	stDeleteIntents: `DELETE FROM call_intents WHERE session_id = ? AND round_seq = ?`,
	// The writer adds a document the session does not hold yet (docSet).
	stInsertRecall: `INSERT INTO recall_docs (session_id, round_seq, task_seq, kind, at, text, scope)
			VALUES (?1, ?2, ?3, ?4, ?5, ?6, ` + recallScopeSQL + `)`,
}

// wtx is the write transaction an op runs in.
//
// The writer's statements are prepared on its *sql.DB between
// transactions, never inside one: with one connection, DB.Prepare waits
// for the connection a transaction holds, forever. tx.StmtContext then
// finds the statement already prepared on that connection and reuses it.
// (A statement prepared on a *sql.Conn would not help: Tx.StmtContext
// prepares such a statement anew on every call.)
type wtx struct {
	tx    *sql.Tx
	w     *writer
	bound [numStmts]*sql.Stmt // the writer's statements bound to tx
	// dataVersion is PRAGMA data_version read in this transaction;
	// checked says it was read.
	dataVersion int64
	checked     bool
}

// stmt returns statement id bound to the transaction: the writer's, or
// one prepared for this transaction when the writer has none yet; nil
// when preparing failed.
func (t *wtx) stmt(ctx context.Context, id stmtID) *sql.Stmt {
	if s := t.bound[id]; s != nil {
		return s
	}
	if t.w == nil {
		return nil
	}
	if t.w.stmts[id] == nil {
		t.w.wanted[id] = true // warm prepares it for the transactions after this one
		// Prepared for this transaction: a round's rows of one kind
		// parse it once, not once a row.
		s, err := t.tx.PrepareContext(ctx, stmtSQL[id])
		if err != nil {
			return nil // the text path reports the error
		}
		t.bound[id] = s
		return s
	}
	s := t.tx.StmtContext(ctx, t.w.stmts[id])
	t.bound[id] = s
	return s
}

// exec runs one of the writer's statements.
func (t *wtx) exec(ctx context.Context, id stmtID, args ...any) (sql.Result, error) {
	if s := t.stmt(ctx, id); s != nil {
		return s.ExecContext(ctx, args...)
	}
	return t.tx.ExecContext(ctx, stmtSQL[id], args...)
}

// queryRow runs one of the writer's one-row queries.
func (t *wtx) queryRow(ctx context.Context, id stmtID, args ...any) *sql.Row {
	if s := t.stmt(ctx, id); s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	return t.tx.QueryRowContext(ctx, stmtSQL[id], args...)
}

// Exec runs a statement that is not one of the writer's (rare writes).
func (t *wtx) Exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return t.tx.ExecContext(ctx, q, args...)
}

// session returns what the writer knows of session sid. Once per
// transaction it reads PRAGMA data_version: when another connection has
// committed since the writer last looked (another keel, keel log prune),
// everything cached may be stale and is dropped. The transaction holds
// the write lock (BEGIN IMMEDIATE), so nothing else commits until it ends.
//
// data_version is per connection: the writer drops its cache whenever it
// drops its connection (reset). database/sql could also swap the
// connection silently after an interrupted query, but the writer never
// passes a cancellable context to the driver, so that does not happen.
// A transaction without a writer (tests of old schemas) gets an empty
// cache each time, so every part is read from the database.
func (t *wtx) session(ctx context.Context, sid string) (*sessionCache, error) {
	w := t.w
	if w == nil {
		return &sessionCache{}, nil
	}
	if !t.checked {
		if err := t.queryRow(ctx, stDataVersion).Scan(&t.dataVersion); err != nil {
			return nil, err
		}
		t.checked = true
		if !w.versionKnown || t.dataVersion != w.dataVersion {
			w.sessions = nil
		}
	}
	if w.sessions == nil {
		w.sessions = map[string]*sessionCache{}
	}
	c := w.sessions[sid]
	if c == nil {
		c = &sessionCache{}
		w.sessions[sid] = c
	}
	return c, nil
}

// counter returns a session's message counter, read from the database
// the first time.
func (t *wtx) counter(ctx context.Context, sid string) (*msgCounter, error) {
	c, err := t.session(ctx, sid)
	if err != nil {
		return nil, err
	}
	if c.counter == nil {
		var mc msgCounter
		err = t.queryRow(ctx, stMaxSeq, sid).Scan(&mc.seq)
		if err == nil {
			err = t.queryRow(ctx, stMaxEpoch, sid).Scan(&mc.epoch)
		}
		if err != nil {
			return nil, err
		}
		c.counter = &mc
	}
	return c.counter, nil
}

// committed tells the writer which data_version its cache now matches.
func (t *wtx) committed() {
	if t.w != nil && t.checked {
		t.w.dataVersion, t.w.versionKnown = t.dataVersion, true
	}
}

// msgCounter is what a session's next messages need: the highest message
// seq and the highest epoch stored.
type msgCounter struct {
	seq, epoch int
}
