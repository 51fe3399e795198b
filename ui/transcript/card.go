package transcript

import (
	"fmt"
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
	body = append(body, r.cardWhy(in, inner)...)
	if in.Message != "" {
		body = append(body, r.st.Bold.Render("sent to the model:"))
		body = append(body, r.abridge(common.Wrap(r.st.Status, in.Message, inner), e.expanded)...)
	}
	body = append(body, r.cardAnswer(e, inner)...)
	style := r.st.Card
	if in.Action == "halt" || in.Action == "ask" {
		style = r.st.CardHalt
	}
	box := style.Width(inner + 4).Render(strings.Join(body, "\n"))
	return strings.Split(box, "\n")
}

// cardWhy is why a card fired, in words: a checkpoint's from its figures
// (checkpointWhy), a guard's reason (or, without one, its figures).
func (r *renderer) cardWhy(in *agent.Intervention, width int) []string {
	var out []string
	if in.Kind == "reflection" {
		for _, l := range checkpointWhy(in) {
			out = append(out, common.Wrap(r.st.Dim, l, width)...)
		}
		if out != nil {
			return out
		}
	}
	switch why := in.Why; {
	case why == "": // a row from before the reason was kept: its figures, in words where known
		why = guardFigures(in.Kind, in.Figures)
		if why == "" {
			break
		}
		fallthrough
	default: // the reason says the figures in words: no "streak=3 warn_at=3" line under it
		out = append(out, common.Wrap(r.st.Dim, "why: "+why, width)...)
	}
	return out
}

// cardAnswer is the end of a card: the model's answer (a reflect call's
// fields, or its reply rendered as the transcript renders answers), why
// none came, or that one is awaited.
func (r *renderer) cardAnswer(e *Entry, width int) []string {
	in := e.card
	switch {
	case strings.HasPrefix(in.Reply, agent.UnansweredReply): // the text the model wrote instead is below the card
		return common.Wrap(r.st.Dim, "not answered: "+strings.TrimPrefix(agent.UnansweredReply, "unanswered: "), width)
	case e.refl != nil:
		return append([]string{r.st.Bold.Render("answer:")}, r.abridge(r.reflection(e.refl, width), e.expanded)...)
	case in.Reply != "":
		md := r.md.Render(common.Clean(in.Reply), width)
		for len(md) > 0 && strings.TrimSpace(ansi.Strip(md[len(md)-1])) == "" {
			md = md[:len(md)-1]
		}
		return append([]string{r.st.Bold.Render("answer:")}, r.abridge(md, e.expanded)...)
	case e.cardNote != "":
		return common.Wrap(r.st.Dim, "not answered: "+e.cardNote, width)
	case in.Action == "inject" && e.settled:
		return []string{r.st.Dim.Render("not answered: the task ended first")}
	case in.Action == "inject":
		return []string{r.st.Dim.Render("waiting for the model's answer…")}
	}
	return nil
}

// reflection draws a reflect call's fields, each on its own lines.
func (r *renderer) reflection(rf *agent.Reflection, width int) []string {
	var out []string
	field := func(name, value string) {
		if value = strings.TrimSpace(common.Clean(value)); value != "" {
			lines := common.Wrap(r.st.Status, value, width-12)
			for i := range lines {
				label := ""
				if i == 0 {
					label = name
				}
				lines[i] = r.st.Dim.Render(fmt.Sprintf("%-12s", label)) + lines[i]
			}
			out = append(out, lines...)
		}
	}
	field("progress", rf.Progress)
	field("evidence", strings.Join(rf.Evidence, "; "))
	field("blockers", strings.Join(rf.Blockers, "; "))
	field("next", rf.NextAction)
	adj := rf.Adjustment
	switch rf.Adjustment {
	case agent.AdjustDecompose:
		adj += ": " + strings.Join(rf.SubSteps, "; ")
	case agent.AdjustAskUser:
		adj += ": " + rf.Question
	case agent.AdjustStop:
		adj += ": " + rf.Summary
	}
	field("confidence", fmt.Sprintf("%.2f", rf.Confidence))
	field("adjustment", adj)
	return out
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
