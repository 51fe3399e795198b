package datalog

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"
)

// loader reads one session's rounds first..last with one query per table
// (not per round) and files each row under its round.
type loader struct {
	tx          *sql.Tx
	id          string
	first, last int
	byRound     map[int]*RoundDetail
	order       []*RoundDetail
}

// query runs q with the session id and round range as its arguments and
// calls fn for each row with the round it belongs to; fn's first scanned
// column must be round_seq.
func (l *loader) query(ctx context.Context, q string, fn func(*sql.Rows) (int, func(*RoundDetail), error)) error {
	return eachRow(ctx, l.tx, q, []any{l.id, l.first, l.last}, func(rows *sql.Rows) error {
		round, add, err := fn(rows)
		if rd := l.byRound[round]; err == nil && rd != nil && add != nil {
			add(rd)
		}
		return err
	})
}

func (l *loader) rounds(ctx context.Context) error {
	return l.query(ctx, `SELECT seq, task_seq, request_messages, request_tokens, first_token_ns,
		duration_ns, finish_reason, tokens_in, tokens_out, tokens_cached, cost, retries, started_at
		FROM rounds WHERE session_id = ? AND seq BETWEEN ? AND ? ORDER BY seq`,
		func(rows *sql.Rows) (int, func(*RoundDetail), error) {
			r := Round{SessionID: l.id}
			var ft, dur, started int64
			err := rows.Scan(&r.Seq, &r.TaskSeq, &r.RequestMessages, &r.RequestTokens, &ft, &dur,
				&r.FinishReason, &r.TokensIn, &r.TokensOut, &r.TokensCached, &r.Cost, &r.Retries, &started)
			r.FirstToken, r.Duration, r.Started = time.Duration(ft), time.Duration(dur), fromNanos(started)
			rd := &RoundDetail{Round: r}
			l.byRound[r.Seq] = rd
			l.order = append(l.order, rd)
			return 0, nil, err
		})
}

// loadMessagesSQL reads the messages of rounds first..last through the
// messages_round index, in its order: a few rounds of a long session do
// not read every message of the session (ORDER BY seq alone made SQLite
// scan them all by the primary key).
const loadMessagesSQL = `SELECT round_seq, seq, epoch, json FROM messages
	WHERE session_id = ? AND round_seq BETWEEN ? AND ? ORDER BY round_seq, seq`

func (l *loader) messages(ctx context.Context) error {
	return l.query(ctx, loadMessagesSQL,
		func(rows *sql.Rows) (int, func(*RoundDetail), error) {
			m := Message{SessionID: l.id}
			var js string
			if err := rows.Scan(&m.Round, &m.Seq, &m.Epoch, &js); err != nil {
				return 0, nil, err
			}
			m.JSON = json.RawMessage(js)
			err := json.Unmarshal(m.JSON, &m.Msg)
			return m.Round, func(rd *RoundDetail) { rd.Messages = append(rd.Messages, m) }, err
		})
}

func (l *loader) toolCalls(ctx context.Context) error {
	return l.query(ctx, `SELECT c.round_seq, c.idx, c.call_id, c.name, c.arguments, c.result, c.result_size, c.is_error,
		c.duration_ns, c.permission, c.decided_by, c.verified, COALESCE(p.json, '') FROM tool_calls c
		LEFT JOIN tool_progress p ON p.session_id = c.session_id AND p.round_seq = c.round_seq AND p.idx = c.idx
		WHERE c.session_id = ? AND c.round_seq BETWEEN ? AND ? ORDER BY c.round_seq, c.idx`,
		func(rows *sql.Rows) (int, func(*RoundDetail), error) {
			tc := ToolCall{SessionID: l.id}
			var dur int64
			err := rows.Scan(&tc.Round, &tc.Index, &tc.CallID, &tc.Name, &tc.Arguments, &tc.Result,
				&tc.ResultSize, &tc.IsError, &dur, &tc.Permission, &tc.DecidedBy, &tc.Verified, &tc.Progress)
			tc.Duration = time.Duration(dur)
			return tc.Round, func(rd *RoundDetail) { rd.ToolCalls = append(rd.ToolCalls, tc) }, err
		})
}

func (l *loader) interventions(ctx context.Context) error {
	return l.query(ctx, `SELECT round_seq, idx, kind, at_tool_call, figures_json, message, reply, why, action
		FROM interventions WHERE session_id = ? AND round_seq BETWEEN ? AND ? ORDER BY round_seq, idx`,
		func(rows *sql.Rows) (int, func(*RoundDetail), error) {
			iv := Intervention{SessionID: l.id}
			var fig string
			err := rows.Scan(&iv.Round, &iv.Index, &iv.Kind, &iv.AtToolCall, &fig, &iv.Message, &iv.Reply, &iv.Why, &iv.Action)
			if fig != "" {
				iv.Figures = json.RawMessage(fig)
			}
			return iv.Round, func(rd *RoundDetail) { rd.Interventions = append(rd.Interventions, iv) }, err
		})
}

func (l *loader) plans(ctx context.Context) error {
	return l.query(ctx, `SELECT round_seq, attempt, status, json, at FROM plan_snapshots
		WHERE session_id = ? AND round_seq BETWEEN ? AND ? ORDER BY id`,
		func(rows *sql.Rows) (int, func(*RoundDetail), error) {
			p := PlanSnapshot{SessionID: l.id}
			var js string
			var at int64
			err := rows.Scan(&p.Round, &p.Attempt, &p.Status, &js, &at)
			p.Plan, p.At = json.RawMessage(js), fromNanos(at)
			return p.Round, func(rd *RoundDetail) { rd.Plans = append(rd.Plans, p) }, err
		})
}

func (l *loader) transitions(ctx context.Context) error {
	return l.query(ctx, `SELECT round_seq, from_state, to_state, detail, at FROM state_transitions
		WHERE session_id = ? AND round_seq BETWEEN ? AND ? ORDER BY id`,
		func(rows *sql.Rows) (int, func(*RoundDetail), error) {
			st := StateTransition{SessionID: l.id}
			var at int64
			err := rows.Scan(&st.Round, &st.From, &st.To, &st.Detail, &at)
			st.At = fromNanos(at)
			return st.Round, func(rd *RoundDetail) { rd.Transitions = append(rd.Transitions, st) }, err
		})
}

func (l *loader) reflections(ctx context.Context) error {
	return l.query(ctx, `SELECT round_seq, checkpoint_round, checkpoint_idx, status, adjustment, confidence, json, at
		FROM reflections WHERE session_id = ? AND round_seq BETWEEN ? AND ? ORDER BY id`,
		func(rows *sql.Rows) (int, func(*RoundDetail), error) {
			r := Reflection{SessionID: l.id}
			var js string
			var at int64
			err := rows.Scan(&r.Round, &r.CheckpointRound, &r.CheckpointIndex, &r.Status, &r.Adjustment, &r.Confidence, &js, &at)
			if js != "" {
				r.JSON = json.RawMessage(js)
			}
			r.At = fromNanos(at)
			return r.Round, func(rd *RoundDetail) { rd.Reflections = append(rd.Reflections, r) }, err
		})
}

func (l *loader) fileChanges(ctx context.Context) error {
	return l.query(ctx, `SELECT round_seq, id, task_seq, tool_call_id, path, existed, mode, undone_at,
		before_sha256, after_sha256, path_redacted, before_redacted, after_redacted, by_command, state
		FROM file_changes WHERE session_id = ? AND round_seq BETWEEN ? AND ? ORDER BY id`,
		func(rows *sql.Rows) (int, func(*RoundDetail), error) {
			fc := FileChange{SessionID: l.id}
			var mode int64
			var undone sql.NullInt64
			var state string
			err := rows.Scan(&fc.Round, &fc.ID, &fc.TaskSeq, &fc.ToolCallID, &fc.Path, &fc.Existed, &mode, &undone,
				&fc.BeforeSHA256, &fc.AfterSHA256, &fc.PathRedacted, &fc.BeforeRedacted, &fc.AfterRedacted, &fc.ByCommand, &state)
			fc.Mode, fc.Pending = uint32(mode), state == "pending"
			if undone.Valid {
				fc.Undone = fromNanos(undone.Int64)
			}
			return fc.Round, func(rd *RoundDetail) { rd.FileChanges = append(rd.FileChanges, fc) }, err
		})
}
