package datalog

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Search limits.
const (
	DefaultSearchLimit = 10
	MaxSearchLimit     = 100
	// hitsPerSession keeps one long session from filling the results.
	hitsPerSession = 3
	// searchWindow is how many of the newest matching texts are ranked:
	// a word most texts hold costs no more than this many, and the best
	// among recent sessions come first.
	searchWindow = 300
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
// calls matching q.Text: of the newest searchWindow matching texts, the
// best matches first (BM25 over those texts, see rankWindow), at most
// three per session. Every word must match; when no text has them all,
// any word will do. Text with nothing to search for returns no hits.
func (db *DB) Search(ctx context.Context, q SearchQuery) ([]Hit, error) {
	terms, words := searchTerms(q.Text)
	if len(terms) == 0 {
		return nil, nil
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	s := search{db: db, exclude: q.Exclude, limit: min(limit, MaxSearchLimit), words: words}
	if q.Project != "" {
		s.project = db.red.String(q.Project) // stored redacted
	}
	hits, err := s.run(ctx, terms, false)
	if err == nil && len(hits) == 0 && len(terms) > 1 {
		hits, err = s.run(ctx, terms, true)
	}
	if err != nil {
		return nil, fmt.Errorf("search the datalog: %w", err)
	}
	return hits, nil
}

// search is one Search's settings.
type search struct {
	db               *DB
	project, exclude string
	limit            int
	words            []queryWord // the words searched for, for ranking and snippets
}

// match is the FTS5 query: the terms in the text column, within the
// project's scope when there is one.
func (s *search) match(terms []string, or bool) string {
	m := ftsMatch(terms, or)
	if s.project != "" {
		m = `"` + scopeToken(s.project) + `" AND (` + m + `)`
	}
	return m
}

// windowSQL reads the newest matching texts: FTS5 walks its index newest
// first and stops at the window, so a word most texts hold costs no more
// than a rare one. The excluded session's texts are left out before the
// window, so they cannot fill it.
const windowSQL = `SELECT d.id, d.session_id, s.project_root, d.kind, d.round_seq, d.at, d.text
	FROM (SELECT rowid AS id FROM recall_fts WHERE recall_fts MATCH ?1
		AND rowid NOT IN (SELECT id FROM recall_docs WHERE session_id = ?2)
		ORDER BY rowid DESC LIMIT ?3) w
	JOIN recall_docs d ON d.id = w.id JOIN sessions s ON s.id = d.session_id`

func (s *search) run(ctx context.Context, terms []string, or bool) ([]Hit, error) {
	var docs []*windowDoc
	err := s.each(ctx, windowSQL, []any{s.match(terms, or), s.exclude, searchWindow}, func(rows *sql.Rows) error {
		d := &windowDoc{}
		var at int64
		if err := rows.Scan(&d.id, &d.hit.SessionID, &d.hit.Project, &d.hit.Kind, &d.hit.Round, &at, &d.text); err != nil {
			return err
		}
		d.hit.At = fromNanos(at)
		// The scope token is exact in practice; the root is checked all the same.
		if s.project == "" || d.hit.Project == s.project {
			docs = append(docs, d)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	rankWindow(docs, s.words)
	perSession := map[string]int{}
	var hits []Hit
	for _, d := range docs {
		if len(hits) == s.limit {
			break
		}
		if perSession[d.hit.SessionID] < hitsPerSession {
			perSession[d.hit.SessionID]++
			d.hit.Snippet = snippet(d.text, s.words)
			hits = append(hits, d.hit)
		}
	}
	return hits, nil
}

// each runs q and scan on every row.
func (s *search) each(ctx context.Context, q string, args []any, scan func(*sql.Rows) error) error {
	return eachRow(ctx, s.db.reader(ctx), q, args, scan)
}

// querier is what eachRow queries: the read pool or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// eachRow runs query on db and scan on every row it returns.
func eachRow(ctx context.Context, db querier, query string, args []any, scan func(*sql.Rows) error) error {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}
