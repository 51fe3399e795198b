package datalog

import (
	"context"
	"fmt"
	"time"
)

// Search limits.
const (
	DefaultSearchLimit = 10
	MaxSearchLimit     = 100
	// hitsPerSession keeps one long session from filling the results.
	hitsPerSession = 3
)

// SearchQuery selects what Search returns.
type SearchQuery struct {
	Text    string // the user's words; never read as FTS5 syntax
	Project string // project root, exact; "" searches every project
	// Exclude is a session left out: the running one, whose own rounds
	// the model has in front of it.
	Exclude string
	Limit   int // default DefaultSearchLimit, at most MaxSearchLimit
}

// Hit is one matching text of a past session.
type Hit struct {
	SessionID string    `json:"session_id"`
	Project   string    `json:"project"`
	Kind      string    `json:"kind"` // RecallPrompt, RecallAnswer, RecallPlan or RecallCalls
	Round     int       `json:"round"`
	At        time.Time `json:"at"`
	Snippet   string    `json:"snippet"` // the matching words marked **like this**
}

// Search finds past sessions' prompts, answers, plan goals and tool
// calls matching q.Text, best match first (FTS5's bm25), at most three
// per session. Every word must match; when no text has them all, any
// word will do. Text with nothing to search for returns no hits.
func (db *DB) Search(ctx context.Context, q SearchQuery) ([]Hit, error) {
	terms := searchTerms(q.Text)
	if len(terms) == 0 {
		return nil, nil
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	limit = min(limit, MaxSearchLimit)
	project := ""
	if q.Project != "" {
		project = db.red.String(q.Project) // stored redacted
	}
	hits, err := db.rankHits(ctx, ftsMatch(terms, false), project, q.Exclude, limit)
	if err == nil && len(hits) == 0 && len(terms) > 1 {
		hits, err = db.rankHits(ctx, ftsMatch(terms, true), project, q.Exclude, limit)
	}
	if err != nil {
		return nil, fmt.Errorf("search the datalog: %w", err)
	}
	return hits, nil
}

// rankSQL ranks the matching documents, keeping each session's best
// hitsPerSession. The snippets are made for the hits kept only.
const rankSQL = `SELECT id, session_id, project_root, kind, round_seq, at FROM (
	SELECT id, session_id, project_root, kind, round_seq, at, score,
		row_number() OVER (PARTITION BY session_id ORDER BY score) AS n
	FROM (
		SELECT d.id, d.session_id, s.project_root, d.kind, d.round_seq, d.at,
			bm25(recall_fts) AS score
		FROM recall_fts JOIN recall_docs d ON d.id = recall_fts.rowid
		JOIN sessions s ON s.id = d.session_id
		WHERE recall_fts MATCH ?1 AND (?2 = '' OR s.project_root = ?2) AND d.session_id != ?3))
	WHERE n <= ?4 ORDER BY score LIMIT ?5`

const snippetSQL = `SELECT snippet(recall_fts, 0, '**', '**', '…', 24) FROM recall_fts
	WHERE recall_fts MATCH ? AND rowid = ?`

func (db *DB) rankHits(ctx context.Context, match, project, exclude string, limit int) ([]Hit, error) {
	rows, err := db.read.QueryContext(ctx, rankSQL, match, project, exclude, hitsPerSession, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var hits []Hit
	var ids []int64
	for rows.Next() {
		var h Hit
		var id, at int64
		if err := rows.Scan(&id, &h.SessionID, &h.Project, &h.Kind, &h.Round, &at); err != nil {
			return nil, err
		}
		h.At = fromNanos(at)
		hits, ids = append(hits, h), append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	for i := range hits {
		if err := db.read.QueryRowContext(ctx, snippetSQL, match, ids[i]).Scan(&hits[i].Snippet); err != nil {
			return nil, err
		}
	}
	return hits, nil
}
