package transcript

import (
	"time"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/ui/markdown"
)

// entryKind says what a transcript entry shows.
type entryKind int

const (
	kindUser      entryKind = iota // a prompt the user sent (or queued)
	kindAssistant                  // the model's answer, markdown
	kindReasoning                  // the model's reasoning, collapsed to one line
	kindTool                       // one tool call
	kindCard                       // a checkpoint or guard card
	kindError                      // a one-line error card that says what to do
	kindNotice                     // a dim one-line note (cancelled, cadence set, ...)
)

// toolState is a tool call's outcome so far.
type toolState int

const (
	toolRunning toolState = iota
	toolOK
	toolFailed
	toolDenied
)

// toolCall is what the transcript knows about one tool call.
type toolCall struct {
	id, name, args string
	state          toolState
	output         string
	diff           string
	exitCode       *int
	duration       time.Duration
	denyReason     string
	user           bool      // a !command the user ran, not the model's call
	note           string    // a dim note after the outcome
	noDuration     bool      // a resumed !command: its duration was not kept
	child          *child    // a task call's subagent, shown live under it
	progress       string    // a running call's latest progress report
	images         []string  // the pictures it returned, as [image W×H]
	started        time.Time // when it began to run (after any permission question); zero: unknown
}

// Entry is one item of the transcript. Its rendered lines are cached per
// width and version: anything that changes what it shows bumps version.
type Entry struct {
	kind      entryKind
	text      string   // prompt, answer, reasoning, error or notice text
	chips     []string // a prompt's @file mentions, drawn as chips
	attached  string   // what went with a prompt (files, command output)
	queued    bool     // a prompt waiting for the running task to end
	streaming bool     // an answer or reasoning still arriving
	dirty     bool     // streamed text arrived since the last frame
	expanded  bool
	tool      *toolCall
	card      *agent.Intervention
	settled   bool              // a card whose task has ended: an answer it lacks will not come
	refl      *agent.Reflection // a checkpoint's structured answer (a reflect call)
	cardNote  string            // why a checkpoint has no answer ("" while one may come)

	version int
	cache   renderCache
	stream  markdown.Stream // incremental markdown state while streaming
}

// renderCache holds an entry's lines for one width and version.
type renderCache struct {
	width, version int
	valid          bool
	lines          []string
}

// expandable reports whether the entry has more to show when expanded.
func (e *Entry) expandable() bool {
	switch e.kind {
	case kindReasoning, kindCard:
		return true
	case kindTool:
		return e.tool.output != "" || e.tool.diff != "" || e.tool.denyReason != ""
	}
	return false
}

// touch marks the entry changed so its cached lines are rebuilt.
func (e *Entry) touch() { e.version++ }

// dynamic reports whether the entry's lines depend on the spinner frame,
// so they are never cached.
func (e *Entry) dynamic() bool {
	return e.kind == kindTool && e.tool.state == toolRunning
}
