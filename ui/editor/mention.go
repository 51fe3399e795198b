package editor

import (
	"context"

	tea "charm.land/bubbletea/v2"
	"github.com/keel-dev/keel/tools"
	"github.com/keel-dev/keel/ui/attach"
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
	attach.File
	loaded bool
}

// fileIndex is the workspace's files, listed in a command and kept; a new
// @ lists them again.
type fileIndex struct {
	files   []string
	loading bool
	failed  bool // the last listing failed (said once)
}

// FilesMsg carries a listing of the workspace's files (the root model
// passes it to FilesLoaded).
type FilesMsg struct {
	files []string
	err   error
}

// MentionMsg carries a mentioned file's text, or why it is not attached
// (the root model passes it to MentionRead).
type MentionMsg struct {
	path  string
	image *tools.Image // an image file's picture
	text  string
	size  int64
	err   error
}

// listFiles lists the workspace's files; ws is captured, not the model.
func listFiles(ws Workspace) tea.Cmd {
	return func() tea.Msg {
		files, err := ws.Files(context.Background(), maxListedFiles)
		return FilesMsg{files: files, err: err}
	}
}

// readMention reads a mentioned file, capped at mentionCap.
func readMention(ws Workspace, path string) tea.Cmd {
	if r, ok := ws.(imageReader); ok && tools.IsImagePath(path) {
		return readMentionImage(r, path)
	}
	return func() tea.Msg {
		text, size, err := ws.ReadMention(path, mentionCap)
		return MentionMsg{path: path, text: text, size: size, err: err}
	}
}
