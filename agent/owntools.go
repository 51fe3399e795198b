package agent

import "github.com/keel-dev/keel/agent/datalog"

// OwnTools names the tools a session made with opts adds to the ones it
// is given: update_plan always, reflect and note when they are on.
func OwnTools(opts Options) []string {
	names := []string{PlanToolName}
	if opts.StructuredReflection {
		names = append(names, ReflectToolName)
	}
	if opts.NotesMax > 0 {
		names = append(names, NoteToolName)
	}
	if opts.offersTask() {
		names = append(names, TaskToolName)
	}
	return names
}

// offersTask reports whether a session made with o has the task tool: a
// subagent never does.
func (o Options) offersTask() bool {
	return o.Subagents != nil && o.Subagents.MaxParallel > 0 && o.AgentName == ""
}

// ReplayNotes rebuilds a resumed session's working memory from its
// stored changes.
func ReplayNotes(evs []datalog.NoteEvent) []Note {
	var notes []Note
	for _, e := range evs {
		switch e.Action {
		case NotePin:
			notes = append(notes, Note{ID: e.NoteID, Text: e.Text})
		case NoteUpdate:
			for i := range notes {
				if notes[i].ID == e.NoteID {
					notes[i].Text = e.Text
				}
			}
		case NoteDrop, NoteEvict:
			for i := range notes {
				if notes[i].ID == e.NoteID {
					notes = append(notes[:i], notes[i+1:]...)
					break
				}
			}
		}
	}
	return notes
}

// ownTool reports a tool the session owns (update_plan, reflect, note):
// each only records, so the permission policy does not judge it.
func (s *Session) ownTool(name string) bool {
	return name == PlanToolName || (name == ReflectToolName && s.opts.StructuredReflection) || (name == NoteToolName && s.opts.NotesMax > 0) ||
		(name == TaskToolName && s.opts.offersTask()) // its child's calls are judged one by one
}
