package ui

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
func (in *input) afterEdit() tea.Cmd {
	word := in.ta.wordBeforeCursor()
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
func (in *input) showFiles(query string) {
	ranked := rankFiles(query, in.files.files, maxFileCompletions)
	items := make([]completionItem, len(ranked))
	for i, p := range ranked {
		items[i] = completionItem{value: p}
	}
	in.popup.show(completeFile, items)
}

// filesLoaded takes a listing; it returns a line for the transcript when
// listing failed (once until one succeeds).
func (in *input) filesLoaded(msg filesMsg) string {
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
		if word := in.ta.wordBeforeCursor(); strings.HasPrefix(word, "@") {
			in.showFiles(word[1:])
		}
	}
	return ""
}

// accept takes the selected completion: a /command is completed, a file
// becomes a chip whose text is read in the returned command.
func (in *input) accept() tea.Cmd {
	it := in.popup.selected()
	kind := in.popup.kind
	in.popup.close()
	if kind == completeSlash {
		in.set(it.value + " ")
		return nil
	}
	word := in.ta.wordBeforeCursor()
	in.ta.replaceBeforeCursor(len([]rune(word)), "@"+it.value+" ")
	in.inMention = false
	if in.hasMention(it.value) {
		return nil
	}
	in.mentions = append(in.mentions, mention{File: attach.File{Path: it.value}})
	in.syncChips()
	return readMention(in.ws, it.value)
}

func (in *input) hasMention(path string) bool {
	for _, m := range in.mentions {
		if m.Path == path {
			return true
		}
	}
	return false
}

// mentionRead takes a mentioned file's text; a file that cannot be
// attached (binary, outside the workspace) loses its chip, and the
// returned line says why.
func (in *input) mentionRead(msg mentionMsg) string {
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
		m.Text, m.Size, m.loaded = msg.text, msg.size, true
		return ""
	}
	return "" // the prompt was sent or cleared meanwhile
}

// attachments are the mentions whose chip is still in the text and whose
// file was read; a chip still loading is reported by name.
func (in *input) attachments() (ready []attach.File, loading []string) {
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

// reading reports whether a mention's file is still being read.
func (in *input) reading() bool {
	for _, m := range in.mentions {
		if !m.loaded {
			return true
		}
	}
	return false
}

func (in *input) clearMentions() {
	in.mentions, in.inMention, in.sendWhenRead = nil, false, false
	in.popup.close()
	in.syncChips()
}

// syncChips tells the editor which text to draw as chips.
func (in *input) syncChips() {
	in.ta.chips = in.ta.chips[:0]
	for _, m := range in.mentions {
		in.ta.chips = append(in.ta.chips, m.Chip())
	}
}
