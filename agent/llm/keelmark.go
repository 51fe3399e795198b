package llm

import "strings"

// The marks that open a user-role message keel writes itself, so that
// whoever reads a history (the transcript's replay, recall, the
// compaction's statement of the task) tells it from what the user typed.
const (
	// KeelMark opens every such message.
	KeelMark = "[keel"
	// CompactedMark opens the summary a compaction puts in place of the
	// history it replaced.
	CompactedMark = "[keel compacted the earlier conversation"
	// NoteMark opens a note keel adds for the model (what keel undo
	// reverted since its last answer).
	NoteMark = "[keel] "
)

// FromKeel reports a message keel wrote rather than the user.
func FromKeel(content string) bool { return strings.HasPrefix(content, KeelMark) }
