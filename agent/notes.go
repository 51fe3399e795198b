package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/tools"
)

// NoteToolName is the working memory's tool (seed 002): a few facts the
// model pins, bounded, least recently used evicted first.
const NoteToolName = "note"

// Note actions.
const (
	NotePin    = "pin"
	NoteUpdate = "update"
	NoteDrop   = "drop"
	NoteEvict  = "evict" // keel's, when a pin finds the memory full
)

// NoteArgs are the note tool's parameters.
type NoteArgs struct {
	Action string `json:"action" description:"pin: keep a new fact; update: replace a pinned fact's text (id); drop: forget a fact (id)."`
	ID     string `json:"id,omitempty" description:"The note's id, for update and drop (pin returns it)."`
	Text   string `json:"text,omitempty" description:"The fact, one or two sentences, for pin and update."`
}

// Note is one pinned fact.
type Note struct {
	ID   string `json:"id"`
	Text string `json:"text"`
	used int    // when it was last pinned or updated, for eviction
}

// NotesChanged reports the working memory after a change; Evicted is the
// note a full memory let go of, if any.
type NotesChanged struct {
	Notes   []Note
	Evicted *Note
}

func (NotesChanged) event() {}

const noteToolDesc = `Working memory: pin a fact you will need later (a path, a decision, a value found), update it, or drop it. keel keeps at most a few notes (the least recently used goes first when it is full) and shows them to you again after the history is compacted. Not for plans (update_plan) or long text.`

// maxNoteText bounds one note, so the memory stays small.
const maxNoteText = 500

// memory is the session's working memory.
type memory struct {
	mu    sync.Mutex
	max   int
	notes []Note
	next  int // the last id number given
	clock int
}

func newMemory(max int, restored []Note) *memory {
	m := &memory{max: max}
	for _, n := range restored {
		m.clock++
		n.used = m.clock
		m.notes = append(m.notes, n)
		var k int
		if _, err := fmt.Sscanf(n.ID, "n%d", &k); err == nil && k > m.next {
			m.next = k
		}
	}
	return m
}

// list returns the notes, oldest pin first.
func (m *memory) list() []Note {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Note(nil), m.notes...)
}

// apply runs one call; it returns the reply, the evicted note (if any) and
// the id acted on, or an error message for the model.
func (m *memory) apply(a NoteArgs) (reply, id string, evicted *Note, errMsg string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	text := strings.TrimSpace(a.Text)
	if (a.Action == NotePin || a.Action == NoteUpdate) && (text == "" || len(text) > maxNoteText) {
		return "", "", nil, fmt.Sprintf("%s needs text of 1 to %d characters", a.Action, maxNoteText)
	}
	m.clock++
	switch a.Action {
	case NotePin:
		if len(m.notes) >= m.max {
			evicted = m.evict()
		}
		m.next++
		id = fmt.Sprintf("n%d", m.next)
		m.notes = append(m.notes, Note{ID: id, Text: text, used: m.clock})
	case NoteUpdate, NoteDrop:
		i := m.find(a.ID)
		if i < 0 {
			return "", "", nil, fmt.Sprintf("no note %q; the notes are %s", a.ID, m.ids())
		}
		id = a.ID
		if a.Action == NoteDrop {
			m.notes = append(m.notes[:i], m.notes[i+1:]...)
		} else {
			m.notes[i].Text, m.notes[i].used = text, m.clock
		}
	default:
		return "", "", nil, fmt.Sprintf("action %q is unknown; use pin, update or drop", a.Action)
	}
	reply = fmt.Sprintf("%s %s; working memory: %d of %d notes", a.Action, id, len(m.notes), m.max)
	if evicted != nil {
		reply += fmt.Sprintf("; it was full, so the least recently used note %s (%q) was dropped", evicted.ID, evicted.Text)
	}
	return reply, id, evicted, ""
}

// evict drops the least recently used note. The caller holds m.mu.
func (m *memory) evict() *Note {
	at := 0
	for i, n := range m.notes {
		if n.used < m.notes[at].used {
			at = i
		}
	}
	ev := m.notes[at]
	m.notes = append(m.notes[:at], m.notes[at+1:]...)
	return &ev
}

func (m *memory) find(id string) int {
	for i, n := range m.notes {
		if n.ID == strings.TrimSpace(id) {
			return i
		}
	}
	return -1
}

func (m *memory) ids() string {
	if len(m.notes) == 0 {
		return "none"
	}
	out := make([]string, len(m.notes))
	for i, n := range m.notes {
		out[i] = n.ID
	}
	return strings.Join(out, ", ")
}

// Notes returns the working memory's notes (the TUI's /notes).
func (s *Session) Notes() []Note { return s.mem.list() }

// noteTool is note bound to s: each change is an event and a datalog row;
// an eviction is one more of each, and a notice.
func (s *Session) noteTool() tools.Tool {
	enums := map[string][]string{"action": {NotePin, NoteUpdate, NoteDrop}}
	return tools.NewTool(NoteToolName, noteToolDesc, tools.ReadOnly, enums, func(ctx context.Context, a NoteArgs) (tools.Result, error) {
		reply, id, evicted, msg := s.mem.apply(a)
		if msg != "" {
			return tools.ErrResult("note rejected: %s", msg), nil
		}
		round, now := s.currentRound(), s.now()
		if evicted != nil {
			s.opts.Recorder.note(datalog.NoteEvent{Round: round, Action: NoteEvict, NoteID: evicted.ID, Text: evicted.Text, At: now})
			s.out.send(Notice{Text: fmt.Sprintf("working memory full (%d notes): dropped the least recently used, %s: %s", s.mem.max, evicted.ID, evicted.Text)})
		}
		text := ""
		if a.Action != NoteDrop {
			text = strings.TrimSpace(a.Text)
		}
		s.opts.Recorder.note(datalog.NoteEvent{Round: round, Action: a.Action, NoteID: id, Text: text, At: now})
		s.out.send(NotesChanged{Notes: s.mem.list(), Evicted: evicted})
		return tools.Result{Output: reply}, nil
	})
}

// notesBlock renders the notes for the compacted history's preamble.
func notesBlock(notes []Note) string {
	if len(notes) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nYour working memory (pinned with the note tool):\n")
	for _, n := range notes {
		fmt.Fprintf(&b, "- %s: %s\n", n.ID, n.Text)
	}
	return b.String()
}
