package browser

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/internal/termtext"
	"github.com/keel-dev/keel/ui/common"
	"github.com/keel-dev/keel/ui/theme"
)

// View renders the browser for width × height. What the datalog holds is
// the model's and the tools' text: every piece of it is sanitised (Clean,
// OneLine, KeyArgument) before it is styled.
func (b *Model) View(st theme.Styles, width, height int) string {
	var title, help string
	var body []string
	switch b.level {
	case levelSessions:
		title = b.sessionsTitle()
		help = "↑/↓ move · enter open · ctrl+r resume · tab " + map[bool]string{true: "this project", false: "all projects"}[b.all] + " · esc close"
		body = b.sessionLines(st, width, height-3)
	case levelRounds:
		s := b.detail.Session
		title = common.Clean(fmt.Sprintf("Session %s · %s/%s · %s", datalog.ShortID(s.ID), s.Provider, s.Model, common.Plural(len(b.detail.Rounds), "round")))
		help = "↑/↓ move · enter open round · r resume · esc back"
		body = b.roundLines(st, width, height-3)
	case levelRound:
		rd := b.detail.Rounds[b.cursor]
		title = common.Clean(fmt.Sprintf("Round %d of session %s", rd.Round.Seq, datalog.ShortID(b.detail.Session.ID)))
		help = "↑/↓ PgUp/PgDn scroll · r resume · esc back"
		body = b.roundDetail(st, width, height-3)
	}
	switch {
	case b.err != "":
		body = append([]string{st.ErrorCard.Render(ansi.Truncate("✗ "+b.err, width, "…"))}, body...)
	case b.loading:
		body = append([]string{st.Dim.Render("loading…")}, body...)
	}
	lines := []string{st.Title.Render(ansi.Truncate(title, width, "…")), ""}
	lines = append(lines, body...)
	for len(lines) < height-1 {
		lines = append(lines, "")
	}
	foot := []string{st.Dim.Render(ansi.Truncate(help, width, "…"))}
	switch {
	case b.confirm != "":
		foot = footLines(st.Warn, "Resume here? "+b.confirmText(), width, 3)
	case b.note != "":
		foot = footLines(st.Warn, b.note, width, 2)
	}
	lines = append(lines[:max(height-len(foot), 1)], foot...)
	return strings.Join(lines, "\n")
}

// footLines wraps a question or note over at most n lines: at 80 columns
// the resume question's keys came after the cut.
func footLines(s common.Styler, text string, width, n int) []string {
	lines := strings.Split(common.WrapText(text, width), "\n")
	if len(lines) > n {
		lines = lines[:n]
		lines[n-1] = ansi.Truncate(lines[n-1]+" …", width, "…")
	}
	for i, l := range lines {
		lines[i] = s.Render(l)
	}
	return lines
}

// wideList is the width from which the session list has a model column.
const wideList = 100

func (b *Model) sessionLines(st theme.Styles, width, height int) []string {
	fs := b.filtered()
	if len(fs) == 0 {
		if b.loading {
			return nil
		}
		return []string{st.Dim.Render("no sessions" + map[bool]string{true: " match the filter", false: " logged yet"}[b.filter != ""])}
	}
	if b.cursor < b.listTop {
		b.listTop = b.cursor
	}
	if b.cursor >= b.listTop+height {
		b.listTop = b.cursor - height + 1
	}
	var out []string
	var labels map[string]string
	if b.all {
		labels = projectLabels(fs)
	}
	for i := b.listTop; i < len(fs) && len(out) < height; i++ {
		s := fs[i]
		project := ""
		if b.all {
			project = fmt.Sprintf("%-16s ", keepEnd(labels[s.ProjectRoot], 16))
		}
		model := ""
		if width >= wideList { // narrower, the prompt needs the room more (the round view names the model)
			model = fmt.Sprintf("%-20s ", ansi.Truncate(common.OneLine(s.Provider+"/"+s.Model), 20, "…"))
		}
		rounds := fmt.Sprintf("%4d %-6s", s.Totals.Rounds, common.NounFor(s.Totals.Rounds, "round"))
		stop := "· " + common.OneLine(s.StopReason)
		if s.ID == b.live {
			rounds, stop = fmt.Sprintf("%-11s", "  live"), "· the session running now"
		}
		row := fmt.Sprintf("%s  %s  %s%s%s  %s  %s", datalog.ShortID(s.ID), s.Started.Local().Format("2006-01-02 15:04"), project,
			model, rounds, common.OneLine(s.FirstPrompt), st.Dim.Render(stop))
		out = append(out, cursorLine(st, i == b.cursor, row, width))
	}
	return out
}

// keepEnd fits s in width cells by cutting its start, not its end: the
// end tells apart projects whose names begin alike (my-app, my-app-v2).
func keepEnd(s string, width int) string {
	if w := ansi.StringWidth(s); w > width {
		return "…" + ansi.TruncateLeft(s, w-width+1, "")
	}
	return s
}

// sessionsTitle names the list: this project's sessions (by its name) or
// every project's, and the filter.
func (b *Model) sessionsTitle() string {
	title := "Sessions of every project"
	if b.Project() != "" {
		title = "Sessions of " + projectName(b.here) + " (" + common.OneLine(b.here) + ")"
	}
	if b.filter != "" {
		return title + "  filter: " + b.filter
	}
	return title + "  (type to filter)"
}

// cursorLine marks the line under the cursor.
func cursorLine(st theme.Styles, on bool, row string, width int) string {
	row = ansi.Truncate(row, width-2, "…")
	if on {
		return st.Selected.Render("▶ ") + st.Bold.Render(row)
	}
	return "  " + row
}

// roundLines draws the timeline from roundTop, moving it so the cursor's
// round is on screen; only the rounds drawn are formatted.
func (b *Model) roundLines(st theme.Styles, width, height int) []string {
	rounds := b.detail.Rounds
	if len(rounds) == 0 {
		return []string{st.Dim.Render("this session has no rounds")}
	}
	// Every round takes at least one line, so the cursor's round is never
	// more than height rounds below the top.
	b.roundTop = min(max(b.roundTop, b.cursor-height+1), b.cursor)
	for {
		var out []string
		fits := false
		for i := b.roundTop; i < len(rounds) && len(out) < height; i++ {
			blk := b.roundSummary(st, i, width)
			if i == b.cursor {
				fits = len(out) < height // its head line is on screen
			}
			out = append(out, blk...)
		}
		if fits || b.roundTop >= b.cursor {
			return out[:min(len(out), height)]
		}
		b.roundTop++
	}
}

// roundSummary is one round's timeline block: its head line, then its tool
// calls, interventions and plan changes.
func (b *Model) roundSummary(st theme.Styles, i, width int) []string {
	rd := b.detail.Rounds[i]
	rr := rd.Round
	head := fmt.Sprintf("round %d · task %d · %s · in %s out %s · %s", rr.Seq, rr.TaskSeq, termtext.Duration(rr.Duration),
		common.Tokens(rr.TokensIn), common.Tokens(rr.TokensOut), common.OneLine(rr.FinishReason))
	out := []string{cursorLine(st, i == b.cursor, head, width)}
	sub := func(s string) { out = append(out, "    "+ansi.Truncate(s, width-6, "…")) }
	for _, tc := range rd.ToolCalls {
		icon := st.OK.Render("✓")
		if tc.IsError {
			icon = st.Fail.Render("✗")
		}
		if tc.Permission == "deny" {
			icon = st.Warn.Render("⊘")
		}
		call := icon + " " + common.OneLine(tc.Name)
		if arg := common.KeyArgument(tc.Name, tc.Arguments); arg != "" {
			call += " " + arg
		}
		sub(call + st.Dim.Render(" "+termtext.Duration(tc.Duration)))
	}
	for _, iv := range rd.Interventions {
		sub(st.Warn.Render("◆ "+common.OneLine(iv.Kind)) + fmt.Sprintf(" at call %d", iv.AtToolCall))
	}
	for _, p := range rd.Plans {
		sub(st.Accent.Render("▤ plan") + fmt.Sprintf(" attempt %d %s", p.Attempt, common.OneLine(p.Status)))
	}
	return out
}

// roundDetail renders the open round in full once per width, then shows
// the scrolled window of it.
func (b *Model) roundDetail(st theme.Styles, width, height int) []string {
	if b.round == nil || b.roundW != width {
		b.round, b.roundW = roundFull(st, b.detail.Rounds[b.cursor], width), width
	}
	b.scroll = min(b.scroll, max(len(b.round)-height, 0))
	return b.round[b.scroll:min(b.scroll+height, len(b.round))]
}

func roundFull(st theme.Styles, rd *datalog.RoundDetail, width int) []string {
	rr := rd.Round
	var out []string
	add := func(style common.Styler, s string) { out = append(out, common.Wrap(style, common.Clean(s), width)...) }
	head := func(style common.Styler, s string) { out = append(out, "", style.Render(common.OneLine(s))) }
	add(st.Dim, fmt.Sprintf("task %d · started %s · %s (first token %s) · in %d out %d cached %d · %s · finish %s · retries %d",
		rr.TaskSeq, rr.Started.Local().Format(time.DateTime), termtext.Duration(rr.Duration), termtext.Duration(rr.FirstToken),
		rr.TokensIn, rr.TokensOut, rr.TokensCached, common.Cost(common.LoggedCost(rr.Cost, rr.TokensIn+rr.TokensOut)), rr.FinishReason, rr.Retries))
	for _, t := range rd.Transitions {
		add(st.Dim, fmt.Sprintf("state %s → %s %s", t.From, t.To, t.Detail))
	}
	for _, m := range rd.Messages {
		if strings.TrimSpace(m.Msg.Content) == "" {
			continue
		}
		head(st.Bold, string(m.Msg.Role))
		add(st.Status, m.Msg.Content)
	}
	for _, tc := range rd.ToolCalls {
		line := fmt.Sprintf("tool %s · %s", tc.Name, termtext.Duration(tc.Duration))
		if decision := datalog.DecisionText(tc.Permission, tc.Name, tc.DecidedBy); decision != "" {
			line += " · " + decision
		}
		head(st.Bold, line)
		add(st.Dim, tc.Arguments)
		add(st.Status, tc.Result)
	}
	for _, iv := range rd.Interventions {
		head(st.Warn, fmt.Sprintf("intervention %s at call %d %s", iv.Kind, iv.AtToolCall, iv.Figures))
		add(st.Status, iv.Message)
		if iv.Reply != "" {
			add(st.Dim, "reply: "+iv.Reply)
		}
	}
	for _, p := range rd.Plans {
		head(st.Accent, fmt.Sprintf("plan attempt %d %s", p.Attempt, p.Status))
		add(st.Dim, string(p.Plan))
	}
	for _, fc := range rd.FileChanges {
		add(st.Status, fmt.Sprintf("file %s (new: %v)", fc.Path, !fc.Existed))
	}
	return out
}
