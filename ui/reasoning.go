package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/keel-dev/keel/agent"
)

// The reasoning loop's events and commands (issue 28): a checkpoint left
// unanswered, the lessons offered to a task, keel's internal errors, and
// /notes and /reflect.

// applyReasoning routes the reasoning loop's events; it reports whether
// ev was one of them.
func (m *Model) applyReasoning(ev agent.Event) bool {
	switch ev := ev.(type) {
	case agent.ReflectionRecorded:
		switch {
		case ev.Seq == 0:
		case ev.Status == agent.ReflectionUnanswered:
			m.tr.UnansweredCard(ev.Seq, "the next round started without a reply")
		case ev.Reflection != nil:
			m.tr.ReflectCard(ev.Seq, *ev.Reflection)
		}
	case agent.LessonsOffered:
		m.notice(ev.Note)
	case agent.InternalError:
		m.errorCard("keel internal error: " + ev.What + " — the task goes on; please report it")
	case agent.NotesChanged:
	default:
		return false
	}
	return true
}

// cmdNotes lists the working memory's notes.
func (m *Model) cmdNotes(string) tea.Cmd {
	if m.session == nil {
		m.notice("/notes is not available without a session")
		return nil
	}
	notes := m.session.Notes()
	if len(notes) == 0 {
		m.notice("working memory: no notes (the model pins facts with the note tool)")
		return nil
	}
	lines := make([]string, 0, len(notes)+1)
	lines = append(lines, fmt.Sprintf("working memory: %d notes, least recently used first to go", len(notes)))
	for _, n := range notes {
		lines = append(lines, fmt.Sprintf("  %s  %s", n.ID, n.Text))
	}
	m.notice(strings.Join(lines, "\n"))
	return nil
}

// cmdReflect asks for a checkpoint after the round in flight.
func (m *Model) cmdReflect(string) tea.Cmd {
	if m.session == nil {
		m.notice("/reflect is not available without a session")
		return nil
	}
	if err := m.session.Reflect(); err != nil {
		m.notice(err.Error())
		return nil
	}
	m.notice("a checkpoint will follow the round in flight")
	return nil
}
