package transcript

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/keel-dev/keel/internal/termtext"
	"github.com/keel-dev/keel/ui/common"
	"github.com/keel-dev/keel/ui/markdown"
	"github.com/keel-dev/keel/ui/theme"
)

// renderer draws entries; it holds what every entry needs to be drawn and
// nothing that changes per entry.
type renderer struct {
	st   theme.Styles
	md   *markdown.Renderer
	spin string    // the spinner's glyph, for running tool calls (set by View)
	now  time.Time // the clock's last tick, for running calls' time (set by View)
}

func newRenderer(st theme.Styles) *renderer {
	return &renderer{st: st, md: markdown.New(st.GlamourStyle()), spin: common.Spinner(0)}
}

// lines renders e for width columns (the gutter is added by the caller).
// Every entry ends with one blank line, the gap to the next. The entry's
// text is sanitised here, whole: a streamed answer's deltas may split an
// escape sequence.
func (r *renderer) lines(e *Entry, width int) []string {
	var out []string
	text := common.Clean(e.text)
	switch e.kind {
	case kindUser:
		out = r.user(e, text, width)
	case kindAssistant:
		if e.streaming {
			out = e.stream.Lines(r.md, text, width)
		} else {
			out = r.md.Render(text, width)
		}
	case kindReasoning:
		out = r.reasoning(e, text, width)
	case kindTool:
		out = r.tool(e, width)
	case kindCard:
		out = r.card(e, width)
	case kindError:
		out = common.Wrap(r.st.ErrorCard, "✗ "+text, width)
	case kindNotice:
		out = common.Wrap(r.st.Dim, "· "+text, width)
	}
	return append(out, "")
}

func (r *renderer) user(e *Entry, text string, width int) []string {
	mark := r.st.User.Render("›") + " "
	if e.queued {
		text += "  (queued)"
	}
	style := r.st.Bold
	if e.queued {
		style = r.st.Queued
	}
	wrapped := strings.Split(ansi.Wrap(text, max(width-2, 1), ""), "\n")
	for i, l := range wrapped {
		if i == 0 {
			wrapped[i] = mark + r.withChips(l, e.chips, style)
		} else {
			wrapped[i] = "  " + r.withChips(l, e.chips, style)
		}
	}
	if e.attached != "" {
		wrapped = append(wrapped, "  "+r.st.Dim.Render(ansi.Truncate(common.Clean(e.attached), max(width-2, 1), "…")))
	}
	return wrapped
}

// withChips styles a line of a prompt, its chips (@file mentions) as
// chips and the rest with style.
func (r *renderer) withChips(line string, chips []string, style common.Styler) string {
	if len(chips) == 0 {
		return style.Render(line)
	}
	var b strings.Builder
	for line != "" {
		at, chip := -1, ""
		for _, c := range chips {
			if i := strings.Index(line, c); i >= 0 && (at < 0 || i < at) {
				at, chip = i, c
			}
		}
		if at < 0 {
			b.WriteString(style.Render(line))
			break
		}
		if at > 0 {
			b.WriteString(style.Render(line[:at]))
		}
		b.WriteString(r.st.Chip.Render(chip))
		line = line[at+len(chip):]
	}
	return b.String()
}

func (r *renderer) reasoning(e *Entry, text string, width int) []string {
	first := strings.TrimSpace(text)
	if i := strings.IndexByte(first, '\n'); i >= 0 {
		first = first[:i]
	}
	head := "▸ thinking: " + first
	if e.expanded {
		head = "▾ thinking"
	}
	out := []string{r.st.Dim.Render(ansi.Truncate(head, width, "…"))}
	if e.expanded {
		out = append(out, common.Wrap(r.st.Dim.Italic(true), text, width-2)...)
		common.Indent(out[1:], "  ")
	}
	return out
}

func (r *renderer) tool(e *Entry, width int) []string {
	t := e.tool
	icon, style := r.toolIcon(t)
	head := style.Render(icon) + " " + r.st.Bold.Render(t.name)
	var tail []string
	if t.exitCode != nil {
		tail = append(tail, fmt.Sprintf("exit %d", *t.exitCode))
	}
	if t.state != toolRunning && t.state != toolDenied && !t.noDuration {
		tail = append(tail, termtext.Duration(t.duration))
	}
	if t.state == toolDenied {
		tail = append(tail, "denied")
	}
	if t.note != "" {
		tail = append(tail, t.note)
	}
	if t.state == toolRunning {
		if el := r.elapsed(t); el != "" {
			tail = append(tail, el)
		}
		if t.progress != "" {
			tail = append(tail, t.progress)
		}
	}
	suffix := r.st.Dim.Render("  " + strings.Join(tail, " · "))
	room := width - ansi.StringWidth(head) - ansi.StringWidth(suffix) - 1
	if arg := common.KeyArgument(t.name, t.args); arg != "" && room > 3 {
		head += " " + ansi.Truncate(arg, room, "…")
	}
	out := []string{head + suffix}
	return append(out, r.toolBody(e, width)...)
}

func (r *renderer) toolIcon(t *toolCall) (string, common.Styler) {
	switch t.state {
	case toolRunning:
		return r.spin, r.st.Accent
	case toolFailed:
		return "✗", r.st.Fail
	case toolDenied:
		return "⊘", r.st.Warn
	}
	return "✓", r.st.OK
}

// toolBody is what shows under a tool line: a denial's reason, an edit's
// diff (abridged until expanded) and, when expanded, the output.
func (r *renderer) toolBody(e *Entry, width int) []string {
	t := e.tool
	var out []string
	if t.user {
		out = append(out, common.Wrap(r.st.Dim, shellOwn, width-2)...)
	}
	if t.child != nil {
		out = append(out, r.childLines(t, e.expanded, width)...)
	}
	if t.denyReason != "" {
		out = append(out, common.Wrap(r.st.Warn, "reason: "+t.denyReason, width-2)...)
	}
	if len(t.images) > 0 {
		out = append(out, common.Wrap(r.st.Accent, strings.Join(t.images, " "), width-2)...)
	}
	if t.diff != "" {
		out = append(out, common.Diff(r.st, t.diff, width-2, !e.expanded)...)
	}
	if e.expanded && t.output != "" && (t.diff == "" || t.state == toolFailed) {
		out = append(out, common.Wrap(r.st.Dim, strings.TrimRight(t.output, "\n"), width-2)...)
	}
	if !e.expanded && t.user && t.output != "" {
		out = append(out, r.outputTail(t.output, width-2)...)
	} else if !e.expanded && t.state == toolFailed && t.output != "" {
		for _, l := range t.failurePreview() {
			l = strings.ReplaceAll(strings.TrimRight(l, " \t"), "\t", "    ")
			out = append(out, r.st.Fail.UnsetBold().Render(ansi.Truncate(l, width-2, "…")))
		}
	}
	common.Indent(out, "  ")
	return out
}

// shellTailLines is how many lines of a !command's output show before it
// is expanded.
const shellTailLines = 8

// outputTail is the last lines of a command's output, saying how many
// came before them.
func (r *renderer) outputTail(output string, width int) []string {
	lines := common.Wrap(r.st.Dim, strings.TrimRight(output, "\n"), width)
	if len(lines) <= shellTailLines {
		return lines
	}
	more := r.st.Dim.Render(fmt.Sprintf("… %d earlier lines (ctrl+o expands)", len(lines)-shellTailLines))
	return append([]string{more}, lines[len(lines)-shellTailLines:]...)
}
