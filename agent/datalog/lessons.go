package datalog

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// RecallLesson is the kind of a recall document holding a finished task's
// lesson: episodic memory, offered to the next tasks of the project.
const RecallLesson = "lesson"

// Lesson is what a finished task taught: its task, outcome, what failed
// and why, what worked.
type Lesson struct {
	SessionID string    `json:"session_id"`
	Task      int       `json:"task"`
	Text      string    `json:"text"`
	At        time.Time `json:"at"`
}

// WriteLesson stores a task's lesson (redacted) as a recall document in
// its session's project scope, so Lessons finds it by full-text rank.
func (db *DB) WriteLesson(ctx context.Context, l Lesson) error {
	text := capString(db.red.String(l.Text), maxRecallText)
	name := fmt.Sprintf("lesson, task %d", l.Task)
	return db.submit(ctx, name, func(ctx context.Context, tx *wtx) error {
		_, err := tx.Exec(ctx, `INSERT INTO recall_docs (session_id, round_seq, task_seq, kind, at, text, scope)
			VALUES (?1, 0, ?2, ?3, ?4, ?5, `+recallScopeSQL+`)`, l.SessionID, l.Task, RecallLesson, nanos(l.At), text)
		return err
	})
}

// LessonQuery selects the lessons offered to a new task.
type LessonQuery struct {
	Project string // the project root; lessons of other projects are never offered
	Prompt  string // the new task's prompt, ranked against (any of its words)
	Exclude string // the running session: its lessons are in its history already
	Limit   int
}

// Lessons returns the project's lessons most relevant to q.Prompt, best
// first by FTS5's BM25 rank over any of the prompt's words (stop words
// left out), at most q.Limit.
func (db *DB) Lessons(ctx context.Context, q LessonQuery) ([]Lesson, error) {
	terms, _ := searchTerms(q.Prompt)
	if onlyStopWords(q.Prompt) || len(terms) == 0 || q.Project == "" || q.Limit <= 0 {
		return nil, nil
	}
	match := `"` + scopeToken(db.red.String(q.Project)) + `" AND (` + ftsMatch(terms, true) + `)`
	var out []Lesson
	err := eachRow(ctx, db.reader(ctx), `SELECT d.session_id, d.task_seq, d.text, d.at
		FROM recall_fts JOIN recall_docs d ON d.id = recall_fts.rowid
		WHERE recall_fts MATCH ? AND d.kind = ? AND d.session_id != ?
		ORDER BY recall_fts.rank, d.id DESC LIMIT ?`, []any{match, RecallLesson, q.Exclude, q.Limit}, func(rows *sql.Rows) error {
		var l Lesson
		var at int64
		if err := rows.Scan(&l.SessionID, &l.Task, &l.Text, &at); err != nil {
			return err
		}
		l.At = fromNanos(at)
		out = append(out, l)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("find lessons: %w", err)
	}
	return out, nil
}

// onlyStopWords reports a prompt with no word worth ranking by, which
// would otherwise match every lesson through its stop words.
func onlyStopWords(text string) bool {
	for _, w := range splitWords(text) {
		if !stopWords[strings.ToLower(strings.TrimRight(w.text, "*"))] {
			return false
		}
	}
	return true
}
