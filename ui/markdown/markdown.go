// Package markdown renders the model's answers with glamour: a Renderer
// per style that keeps one glamour renderer per width, and a Stream that
// renders a growing answer incrementally (blocks that can no longer change
// are rendered once). It holds no ui state and imports nothing of keel's.
package markdown

import (
	"strings"

	"charm.land/glamour/v2"
	"github.com/charmbracelet/x/ansi"
)

// Renderer renders assistant text with glamour. glamour's renderers are
// made once per (style, width) and reused: making one parses a style,
// which is too slow to do per message.
type Renderer struct {
	style     string
	renderers map[int]*glamour.TermRenderer
}

// New is a Renderer for a built-in glamour style ("dark", "light",
// "notty").
func New(style string) *Renderer {
	return &Renderer{style: style, renderers: map[int]*glamour.TermRenderer{}}
}

// Style is the glamour style the Renderer draws with.
func (md *Renderer) Style() string { return md.style }

// Render returns text as styled lines no wider than width. It falls back to
// plain wrapped text if glamour fails, so an answer is never lost.
func (md *Renderer) Render(text string, width int) []string {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	r := md.renderer(width)
	if r == nil {
		return plainLines(text, width)
	}
	out, err := r.Render(text)
	if err != nil {
		return plainLines(text, width)
	}
	out = strings.ReplaceAll(out, "\t", "    ") // a tab's width depends on the terminal
	return trimBlank(strings.Split(strings.TrimRight(out, "\n"), "\n"))
}

func (md *Renderer) renderer(width int) *glamour.TermRenderer {
	if r, ok := md.renderers[width]; ok {
		return r
	}
	r, err := glamour.NewTermRenderer(glamour.WithStandardStyle(md.style), glamour.WithWordWrap(max(width-4, 10)))
	if err != nil {
		r = nil
	}
	md.renderers[width] = r
	return r
}

// plainLines wraps text to width without styling.
func plainLines(text string, width int) []string {
	return strings.Split(ansi.Wrap(text, max(width, 1), ""), "\n")
}

// trimBlank drops leading and trailing lines that are only spaces: glamour
// pads documents with blank lines that would double the gaps between entries.
func trimBlank(lines []string) []string {
	isBlank := func(s string) bool { return strings.TrimSpace(ansi.Strip(s)) == "" }
	for len(lines) > 0 && isBlank(lines[0]) {
		lines = lines[1:]
	}
	for len(lines) > 0 && isBlank(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// Stream renders a growing markdown answer incrementally: blocks that can
// no longer change (those before the last blank line outside a code fence)
// are rendered once and kept; only the open tail is re-rendered per frame.
type Stream struct {
	width  int
	stable int      // bytes of text rendered into done; never inside a fence
	done   []string // rendered lines of text[:stable]
}

// Lines renders text (which only ever grows while streaming) for width.
func (s *Stream) Lines(md *Renderer, text string, width int) []string {
	if s.width != width || s.stable > len(text) {
		*s = Stream{width: width}
	}
	if end := blockBoundary(text, s.stable); end > s.stable {
		if len(s.done) > 0 {
			s.done = append(s.done, "")
		}
		s.done = append(s.done, md.Render(text[s.stable:end], width)...)
		s.stable = end
	}
	tail := md.Render(text[s.stable:], width)
	if len(s.done) == 0 {
		return tail
	}
	out := s.done[:len(s.done):len(s.done)] // the append below must copy
	if len(tail) > 0 {
		out = append(out, "")
	}
	return append(out, tail...)
}

// blockBoundary finds the end of the last complete markdown block after
// from (which is outside any fence): the byte after a blank line outside a
// fence, or after a closing fence.
func blockBoundary(text string, from int) int {
	best, inFence := from, false
	pos := from
	prevBlank := false
	for {
		nl := strings.IndexByte(text[pos:], '\n')
		if nl < 0 {
			return best
		}
		line := text[pos : pos+nl]
		pos += nl + 1
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			inFence = !inFence
			if !inFence { // a closed fence is a complete block
				best = pos
			}
			prevBlank = false
			continue
		}
		blank := trimmed == ""
		if blank && !inFence && !prevBlank && pos-nl-1 > from {
			best = pos
		}
		prevBlank = blank
	}
}
