package editor

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/keel-dev/keel/ui/attach"
	"github.com/keel-dev/keel/ui/common"
)

// afterEdit follows the text after a key or a paste: while the cursor is
// in a word starting with @, the list offers the workspace's files that
// match the rest of it. A new @ lists the files again (in a command); the
// list shows the last listing meanwhile.
func (in *Model) afterEdit() tea.Cmd {
	word := in.ta.WordBeforeCursor()
	if in.ws == nil || !strings.HasPrefix(word, "@") {
		in.inMention = false
		if in.popup.kind == completeFile {
			in.popup.close()
		}
		return nil
	}
	var cmd tea.Cmd
	if !in.inMention && !in.files.loading {
		in.files.loading = true
		cmd = listFiles(in.ws)
	}
	in.inMention = true
	in.showFiles(word[1:])
	return cmd
}

// showFiles lists the files matching query, best first.
func (in *Model) showFiles(query string) {
	ranked := rankFiles(query, in.files.files, maxFileCompletions)
	items := make([]Item, len(ranked))
	for i, p := range ranked {
		items[i] = Item{Value: p}
	}
	in.popup.show(completeFile, items)
}

// FilesLoaded takes a listing; it returns a line for the transcript when
// listing failed (once until one succeeds).
func (in *Model) FilesLoaded(msg FilesMsg) string {
	in.files.loading = false
	if msg.err != nil {
		if in.files.failed {
			return ""
		}
		in.files.failed = true
		return "@ cannot offer files: " + msg.err.Error()
	}
	in.files.files, in.files.failed = msg.files, false
	if in.inMention {
		if word := in.ta.WordBeforeCursor(); strings.HasPrefix(word, "@") {
			in.showFiles(word[1:])
		}
	}
	return ""
}

// accept takes the selected completion: a /command is completed, a file
// becomes a chip whose text is read in the returned command.
func (in *Model) accept() tea.Cmd {
	it := in.popup.selected()
	kind := in.popup.kind
	in.popup.close()
	if kind == completeSlash {
		in.Set(it.Value + " ")
		return nil
	}
	word := in.ta.WordBeforeCursor()
	in.ta.ReplaceBeforeCursor(len([]rune(word)), "@"+it.Value+" ")
	in.inMention = false
	if in.hasMention(it.Value) {
		return nil
	}
	in.mentions = append(in.mentions, mention{File: attach.File{Path: it.Value}})
	in.syncChips()
	return readMention(in.ws, it.Value)
}

func (in *Model) hasMention(path string) bool {
	for _, m := range in.mentions {
		if m.Path == path {
			return true
		}
	}
	return false
}

// MentionRead takes a mentioned file's text; a file that cannot be
// attached (binary, outside the workspace) loses its chip, and the
// returned line says why. send reports that Enter came while files were
// read and the last has arrived: the prompt goes now.
func (in *Model) MentionRead(msg MentionMsg) (line string, send bool) {
	line = in.mentionRead(msg)
	if in.sendWhenRead && !in.reading() {
		in.sendWhenRead = false
		return line, true
	}
	return line, false
}

func (in *Model) mentionRead(msg MentionMsg) string {
	for i := range in.mentions {
		m := &in.mentions[i]
		if m.Path != msg.path || m.loaded {
			continue
		}
		if msg.err != nil {
			in.mentions = append(in.mentions[:i], in.mentions[i+1:]...)
			in.syncChips()
			return "not attached: " + common.Clean(msg.err.Error())
		}
		m.Text, m.Size, m.Image, m.loaded = msg.text, msg.size, msg.image, true
		return ""
	}
	return "" // the prompt was sent or cleared meanwhile
}

// Attachments are the mentions whose chip is still in the text and whose
// file was read; a chip still loading is reported by name.
func (in *Model) Attachments() (ready []attach.File, loading []string) {
	text := in.ta.Value()
	for _, m := range in.mentions {
		switch {
		case !strings.Contains(text, m.Chip()):
		case m.loaded:
			ready = append(ready, m.File)
		default:
			loading = append(loading, m.Path)
		}
	}
	return ready, loading
}

// SendWhenRead asks for the prompt to go once its files are read
// (MentionRead says when); editing the box again cancels it.
func (in *Model) SendWhenRead() { in.sendWhenRead = true }

// reading reports whether a mention's file is still being read.
func (in *Model) reading() bool {
	for _, m := range in.mentions {
		if !m.loaded {
			return true
		}
	}
	return false
}

func (in *Model) clearMentions() {
	in.mentions, in.inMention, in.sendWhenRead = nil, false, false
	in.popup.close()
	in.syncChips()
}

// syncChips tells the editor which text to draw as chips.
func (in *Model) syncChips() {
	chips := make([]string, 0, len(in.mentions))
	for _, m := range in.mentions {
		chips = append(chips, m.Chip())
	}
	in.ta.SetChips(chips, in.st.Chip)
}
