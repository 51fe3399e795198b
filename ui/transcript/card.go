package transcript

import (
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/ui/common"
)

// maxCollapsedMessage is how many lines of a checkpoint's message a card
// shows before it is expanded.
const maxCollapsedMessage = 6

// cardTitles names each intervention kind on its card.
var cardTitles = map[string]string{
	"reflection":    "checkpoint",
	"reread":        "guard · re-read",
	"repeat":        "guard · repeat",
	"halt":          "guard · halt",
	"error_streak":  "guard · error streak",
	"stall":         "guard · no progress",
	"verify":        "guard · unverified edits",
	"plan_continue": "plan · open steps",
	"monologue":     "guard · repeated answer",
}

// card draws an intervention as a bordered card: its kind, why it fired
// (with the figures), the message sent, and the model's answer.
func (r *renderer) card(e *Entry, width int) []string {
	in := e.card
	inner := max(width-4, 10) // border and padding
	body := []string{r.cardHead(in, inner)}
	if in.Why != "" { // a resumed guard's reason is not kept
		body = append(body, common.Wrap(r.st.Dim, "why: "+in.Why, inner)...)
	}
	if figs := figures(in.Figures); figs != "" {
		body = append(body, r.st.Dim.Render(ansi.Truncate(figs, inner, "…")))
	}
	if in.Message != "" {
		body = append(body, r.st.Bold.Render("sent to the model:"))
		body = append(body, r.abridge(common.Wrap(r.st.Status, in.Message, inner), e.expanded)...)
	}
	switch {
	case in.Reply != "":
		body = append(body, r.st.Bold.Render("answer:"))
		body = append(body, r.abridge(common.Wrap(r.st.Status, in.Reply, inner), e.expanded)...)
	case in.Action == "inject" && e.settled:
		body = append(body, r.st.Dim.Render("no answer: the model did not write one before the task ended"))
	case in.Action == "inject":
		body = append(body, r.st.Dim.Render("waiting for the model's answer…"))
	}
	style := r.st.Card
	if in.Action == "halt" || in.Action == "ask" {
		style = r.st.CardHalt
	}
	box := style.Width(inner + 4).Render(strings.Join(body, "\n"))
	return strings.Split(box, "\n")
}

func (r *renderer) cardHead(in *agent.Intervention, width int) string {
	title, ok := cardTitles[in.Kind]
	if !ok {
		title = in.Kind
	}
	head := r.st.Warn.Bold(true).Render(title)
	tail := fmt.Sprintf("  at tool call %d", in.AtToolCall)
	if in.Action != "" && in.Action != "inject" {
		tail += " · " + in.Action
	}
	return ansi.Truncate(head+r.st.Dim.Render(tail), width, "…")
}

// abridge keeps the first lines of a long text until the card is expanded.
func (r *renderer) abridge(lines []string, expanded bool) []string {
	if expanded || len(lines) <= maxCollapsedMessage {
		return lines
	}
	more := len(lines) - maxCollapsedMessage
	return append(lines[:maxCollapsedMessage:maxCollapsedMessage],
		r.st.Dim.Render(fmt.Sprintf("… %d more lines (ctrl+o expands)", more)))
}

// figures renders the trigger figures sorted by name: "edits=1 reads=8".
func figures(f map[string]int) string {
	keys := make([]string, 0, len(f))
	for k := range f {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, f[k])
	}
	return strings.Join(parts, " ")
}
