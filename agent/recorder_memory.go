package agent

import (
	"context"
	"encoding/json"

	"github.com/keel-dev/keel/agent/datalog"
)

// reflection stores a checkpoint's answer (r nil: unanswered) against the
// checkpoint's row; seq 0 is a reflection no checkpoint asked for.
func (r *Recorder) reflection(seq int, status string, refl *Reflection, round int) {
	if !r.usable() {
		return
	}
	r.mu.Lock()
	at := r.interAt[seq]
	r.mu.Unlock()
	row := datalog.Reflection{SessionID: r.sessionID, Round: round, CheckpointRound: at[0], CheckpointIndex: at[1], Status: status}
	if refl != nil {
		row.JSON, _ = json.Marshal(refl)
		row.Adjustment, row.Confidence = refl.Adjustment, refl.Confidence
	}
	r.settle()
	r.report(r.db.WriteReflection(context.Background(), row))
}

// note stores a change of the working memory.
func (r *Recorder) note(e datalog.NoteEvent) {
	if !r.usable() {
		return
	}
	e.SessionID = r.sessionID
	r.settle()
	r.report(r.db.WriteNoteEvent(context.Background(), e))
}

// lesson stores a finished task's lesson.
func (r *Recorder) lesson(l datalog.Lesson) {
	if !r.usable() {
		return
	}
	l.SessionID = r.sessionID
	r.settle()
	r.report(r.db.WriteLesson(context.Background(), l))
}

// lessons finds the project's lessons for a new task's prompt, leaving
// out this session's own.
func (r *Recorder) lessons(project, prompt string, limit int) []datalog.Lesson {
	if !r.usable() || limit <= 0 {
		return nil
	}
	r.settle()
	ls, err := r.db.Lessons(context.Background(), datalog.LessonQuery{Project: project, Prompt: prompt, Exclude: r.sessionID, Limit: limit})
	if err != nil {
		r.report(err)
		return nil
	}
	return ls
}
