package ui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/keel-dev/keel/ui/common"
)

// mentionCap is how much of a mentioned file is attached to the prompt.
const mentionCap = 32 << 10

// maxListedFiles caps the workspace listing @ completes from.
const maxListedFiles = 50_000

// maxFileCompletions is how many ranked files the list holds.
const maxFileCompletions = 50

// Workspace is the project as the editor sees it (tools.Workspace): its
// files for @ completion, and a mentioned file's text. Both are called
// only in commands, never in Update or View.
type Workspace interface {
	// Files lists the files @ may offer: relative, slash-separated, what
	// .gitignore excludes left out; at most limit.
	Files(ctx context.Context, limit int) ([]string, error)
	// ReadMention reads the first limit bytes of a text file inside the
	// workspace and its size; its error is one sentence for the user
	// (outside the workspace, binary, unreadable).
	ReadMention(rel string, limit int) (text string, size int64, err error)
}

// mention is a file chosen after @: its chip in the input and, once read
// (in a command), its text.
type mention struct {
	path   string
	text   string
	size   int64
	loaded bool
}

func (m mention) chip() string { return "@" + m.path }

// cut reports whether only the first mentionCap bytes are attached.
func (m mention) cut() bool { return m.size > int64(len(m.text)) }

// note describes the attachment for the transcript.
func (m mention) note() string {
	if m.cut() {
		return fmt.Sprintf("%s (first %s of %s)", m.path, common.Bytes(int64(len(m.text))), common.Bytes(m.size))
	}
	return fmt.Sprintf("%s (%s)", m.path, common.Bytes(m.size))
}

// fileIndex is the workspace's files, listed in a command and kept; a new
// @ lists them again.
type fileIndex struct {
	files   []string
	loading bool
	failed  bool // the last listing failed (said once)
}

// filesMsg carries a listing of the workspace's files.
type filesMsg struct {
	files []string
	err   error
}

// mentionMsg carries a mentioned file's text, or why it is not attached.
type mentionMsg struct {
	path string
	text string
	size int64
	err  error
}

// listFiles lists the workspace's files; ws is captured, not the model.
func listFiles(ws Workspace) tea.Cmd {
	return func() tea.Msg {
		files, err := ws.Files(context.Background(), maxListedFiles)
		return filesMsg{files: files, err: err}
	}
}

// readMention reads a mentioned file, capped at mentionCap.
func readMention(ws Workspace, path string) tea.Cmd {
	return func() tea.Msg {
		text, size, err := ws.ReadMention(path, mentionCap)
		return mentionMsg{path: path, text: text, size: size, err: err}
	}
}

// attachFiles appends the mentioned files to a prompt, each in a <file>
// element that says when it was cut.
func attachFiles(prompt string, ms []mention) string {
	if len(ms) == 0 {
		return prompt
	}
	var b strings.Builder
	b.WriteString(prompt)
	for _, m := range ms {
		fmt.Fprintf(&b, "\n\n<file path=%q", m.path)
		if m.cut() {
			fmt.Fprintf(&b, " note=%q", fmt.Sprintf("only the first %d of %d bytes; the rest was cut", len(m.text), m.size))
		}
		b.WriteString(">\n" + m.text)
		if !strings.HasSuffix(m.text, "\n") {
			b.WriteString("\n")
		}
		b.WriteString("</file>")
	}
	return b.String()
}
