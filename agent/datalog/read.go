package datalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrNotFound is returned when no session matches an id or prefix.
var ErrNotFound = errors.New("no such session; list sessions with keel log")

// AmbiguousIDError lists the sessions a prefix matches.
type AmbiguousIDError struct {
	Prefix     string
	Candidates []string
}

// Error lists the candidates and asks for a longer prefix.
func (e *AmbiguousIDError) Error() string {
	return fmt.Sprintf("session id %q is ambiguous; it matches %s: type more of the id",
		e.Prefix, strings.Join(e.Candidates, ", "))
}

// Filter selects sessions for ListSessions. Zero fields select all.
type Filter struct {
	Project string    // project root, exact
	Since   time.Time // started at or after
	Limit   int       // 0: no limit
	Offset  int
	// Asked keeps only sessions that were asked something (a prompt or a
	// round): a TUI opened and killed before its first prompt leaves an
	// empty row that keel -c must not pick.
	Asked bool
	// Subagents keeps subagents' sessions in the list; without it a
	// session's children are listed under it (Children), not beside it.
	Subagents bool
}

const sessionCols = `id, project_root, cwd, git_branch, provider, model, config_json, first_prompt,
	started_at, ended_at, stop_reason, rounds, tool_calls, tokens_in, tokens_out, tokens_cached, cost,
	parent_id, parent_call_id, agent`

// scanner is *sql.Row or *sql.Rows.
type scanner interface{ Scan(...any) error }

func scanSession(sc scanner) (Session, error) {
	var s Session
	var cfg string
	var started int64
	var ended sql.NullInt64
	err := sc.Scan(&s.ID, &s.ProjectRoot, &s.Cwd, &s.GitBranch, &s.Provider, &s.Model, &cfg,
		&s.FirstPrompt, &started, &ended, &s.StopReason, &s.Totals.Rounds, &s.Totals.ToolCalls,
		&s.Totals.TokensIn, &s.Totals.TokensOut, &s.Totals.TokensCached, &s.Totals.Cost,
		&s.ParentID, &s.ParentCallID, &s.Agent)
	if err != nil {
		return s, err
	}
	if cfg != "" {
		s.Config = []byte(cfg)
	}
	s.Started = fromNanos(started)
	if ended.Valid {
		s.Ended = fromNanos(ended.Int64)
	} else {
		// Never ended: the process died, or it is still running.
		s.StopReason = StopInterrupted
	}
	return s, nil
}

func fromNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n)
}

// ListSessions returns sessions newest first.
func (db *DB) ListSessions(ctx context.Context, f Filter) ([]Session, error) {
	q := `SELECT ` + sessionCols + ` FROM sessions WHERE 1=1`
	var args []any
	if !f.Subagents {
		q += ` AND parent_id = ''`
	}
	if f.Project != "" {
		q += ` AND project_root = ?`
		args = append(args, db.red.String(f.Project)) // stored redacted
	}
	if !f.Since.IsZero() {
		q += ` AND started_at >= ?`
		args = append(args, f.Since.UnixNano())
	}
	if f.Asked {
		q += ` AND (first_prompt != '' OR rounds > 0 OR EXISTS (SELECT 1 FROM call_intents WHERE session_id = sessions.id))`
	}
	q += ` ORDER BY started_at DESC, id DESC`
	if f.Limit > 0 || f.Offset > 0 {
		lim := f.Limit
		if lim <= 0 {
			lim = -1
		}
		q += ` LIMIT ? OFFSET ?`
		args = append(args, lim, f.Offset)
	}
	rows, err := db.reader(ctx).QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	var out []Session
	for rows.Next() {
		s, err := scanSession(rows)
		if err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// GetSession returns one session by its full id.
func (db *DB) GetSession(ctx context.Context, id string) (Session, error) {
	s, err := scanSession(db.reader(ctx).QueryRowContext(ctx, `SELECT `+sessionCols+` FROM sessions WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return s, fmt.Errorf("session %s: %w", id, ErrNotFound)
	}
	return s, err
}

// ResolveID turns a unique id prefix into the full id.
func (db *DB) ResolveID(ctx context.Context, prefix string) (string, error) {
	prefix = strings.ToLower(strings.TrimSpace(prefix))
	if prefix == "" || strings.Trim(prefix, "0123456789abcdef") != "" {
		return "", fmt.Errorf("session id %q: %w", prefix, ErrNotFound)
	}
	// Ids are hex, so the range [prefix, prefix+"g") holds exactly the
	// matches and uses the primary key.
	rows, err := db.reader(ctx).QueryContext(ctx, `SELECT id FROM sessions WHERE id >= ? AND id < ?
		ORDER BY id LIMIT 6`, prefix, prefix+"g")
	if err != nil {
		return "", fmt.Errorf("resolve session id %q: %w", prefix, err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return "", err
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	switch {
	case len(ids) == 0:
		return "", fmt.Errorf("session id %q: %w", prefix, ErrNotFound)
	case len(ids) > 1 && ids[0] != prefix:
		return "", &AmbiguousIDError{Prefix: prefix, Candidates: ids}
	}
	return ids[0], nil
}

// LatestSession returns the most recently started session of a project
// that was asked something (Filter.Asked).
func (db *DB) LatestSession(ctx context.Context, projectRoot string) (Session, error) {
	list, err := db.ListSessions(ctx, Filter{Project: projectRoot, Limit: 1, Asked: true})
	if err != nil {
		return Session{}, err
	}
	if len(list) == 0 {
		return Session{}, fmt.Errorf("no session for project %s: %w", projectRoot, ErrNotFound)
	}
	return list[0], nil
}

// Now is the datalog's clock (Options.Now).
func (db *DB) Now() time.Time { return db.opts.Now() }

// CountBefore is the number of sessions started before cutoff (what
// Prune would delete).
func (db *DB) CountBefore(ctx context.Context, cutoff time.Time) (int, error) {
	var n int
	err := db.reader(ctx).QueryRowContext(ctx, `SELECT COUNT(*) FROM sessions WHERE started_at < ?`, nanos(cutoff)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count old sessions: %w", err)
	}
	return n, nil
}
