package agent

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/keel-dev/keel/agent/llm"
)

// When the verbatim tail a compaction keeps does not fit the window by
// itself (a resumed session whose history is one oversized tool result:
// issue 26 stopped it "after 0 compactions"), the tail's largest tool
// results are cut down to their head and tail, each with a notice of
// what was cut and where it is whole, before keel gives up.

// minResultKeep is what a shortened tool result keeps at least.
const minResultKeep = 2 << 10

// contextBudget is the bytes of system prompt and history that fit
// compact_at of the window, at estimateTokens' 4 bytes a token.
func (s *Session) contextBudget() int {
	return int(float64(s.opts.ContextWindow)*s.opts.Limits.CompactAt) * 4
}

// fitTail shortens the tool results of the history's verbatim tail when
// the system prompt and the tail alone pass the budget, and reports
// whether it changed the history.
func (t *task) fitTail() bool {
	s := t.s
	if s.opts.ContextWindow <= 0 || s.opts.Limits.CompactAt <= 0 {
		return false
	}
	hist := s.History()
	cut := max(compactionCut(hist, s.opts.Limits.KeepRounds), 0)
	over := len(s.opts.SystemPrompt) + toolDefBytes(s.toolDefs()) + historyBytes(hist[cut:]) + summaryRoom - s.contextBudget()
	if over <= 0 {
		return false
	}
	keep := resultCap(hist[cut:], over)
	changed := false
	for i := cut; i < len(hist); i++ {
		if m := hist[i]; m.Role == llm.RoleTool && len(m.Content) > keep {
			hist[i].Content = shortenResult(m.Content, keep, s.ID())
			changed = true
		}
	}
	if changed {
		t.compaction.lastPrompt, t.compaction.estAtLast = 0, 0 // the server's count was of the longer history
		s.conv.replace(hist)
		s.opts.Recorder.compacted(0) // the next round stores the history as it is now
	}
	return changed
}

// toolDefBytes is the size of the tool list a request carries: part of
// the prompt the server counts, though estimateTokens leaves it out.
func toolDefBytes(defs []llm.ToolDef) int {
	n := 0
	for _, d := range defs {
		n += len(d.Name) + len(d.Description) + len(d.Parameters) + 40
	}
	return n
}

// summaryRoom is left for the summary a compaction puts before the tail.
const summaryRoom = 2 << 10

// resultCap is the size the tool results of msgs are cut to so that
// together they shrink by over bytes (the largest ones first), and never
// under minResultKeep.
func resultCap(msgs []llm.Message, over int) int {
	var sizes []int
	for _, m := range msgs {
		if m.Role == llm.RoleTool && len(m.Content) > minResultKeep {
			sizes = append(sizes, len(m.Content))
		}
	}
	slices.Sort(sizes)
	lo, hi := minResultKeep, minResultKeep
	if len(sizes) > 0 {
		hi = sizes[len(sizes)-1]
	}
	for lo < hi { // the largest cap that saves enough
		c := (lo + hi + 1) / 2
		saved := 0
		for _, n := range sizes {
			saved += max(n-c-resultNoteRoom, 0)
		}
		if saved >= over {
			lo = c
		} else {
			hi = c - 1
		}
	}
	return lo
}

// resultNoteRoom is what shortenResult's notice adds.
const resultNoteRoom = 320

// shortenResult keeps the head (three quarters) and tail of a tool
// result in about keep bytes and says in the middle what was cut and
// where the result is whole.
func shortenResult(content string, keep int, session string) string {
	room := max(keep-resultNoteRoom, 0)
	head := runeStart(content, room*3/4)
	tail := runeStart(content, len(content)-(room-room*3/4))
	if tail <= head {
		return content
	}
	cut := content[head:tail]
	note := fmt.Sprintf("\n\n[... keel cut %d bytes (%d lines) from the middle of this tool result so the resumed conversation fits the context window; "+
		"the result as recorded: keel log show %s; or run the call again on a narrower range ...]\n\n", len(cut), strings.Count(cut, "\n"), session)
	return content[:head] + note + content[tail:]
}

// runeStart moves i back to the start of the UTF-8 character it falls in.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// tooLarge names what keeps the conversation from fitting, for the
// overflow message: the system prompt, or the largest message.
func (s *Session) tooLarge() string {
	budget := s.contextBudget() / 4
	sys := len(s.opts.SystemPrompt) / 4
	if sys >= budget {
		return fmt.Sprintf("the system prompt alone is ~%d tokens of the %d that fit", sys, budget)
	}
	hist := s.History()
	big := -1
	for i := range hist {
		if big < 0 || historyBytes(hist[i:i+1]) > historyBytes(hist[big:big+1]) {
			big = i
		}
	}
	if big < 0 {
		return ""
	}
	what := map[llm.Role]string{llm.RoleUser: "a user message", llm.RoleAssistant: "a model answer", llm.RoleTool: "a tool result", llm.RoleSystem: "a system message"}[hist[big].Role]
	if hist[big].Role == llm.RoleTool && hist[big].Name != "" {
		what = "a " + hist[big].Name + " result"
	}
	return fmt.Sprintf("the largest message, %s, is ~%d tokens, and the system prompt ~%d, of the %d that fit (compact_at of context_window)",
		what, historyBytes(hist[big:big+1])/4, sys, budget)
}
