package keellog

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/internal/termtext"
)

// listColumn is a column of keel log's session list, in two forms: wide,
// and narrow for a terminal too small for the wide table. narrowAt is the
// order in which columns take their narrow form, dropAt the order in
// which they then leave a terminal too narrow for all of them (1 first;
// 0 never), until the prompt has minPrompt columns.
type listColumn struct {
	head, narrowHead string
	wide, narrow     func(datalog.Session) string
	narrowAt, dropAt int
}

// minPrompt is the fewest columns of prompt text a narrow terminal gets
// before a column is dropped for it.
const minPrompt = 16

// listGap is the space between columns.
const listGap = "  "

var listColumns = []listColumn{
	{"ID", "ID", func(s datalog.Session) string { return datalog.ShortID(s.ID) },
		func(s datalog.Session) string { return shortID(s.ID, 8) }, 4, 0},
	{"STARTED", "STARTED", func(s datalog.Session) string { return s.Started.Local().Format("2006-01-02 15:04") },
		func(s datalog.Session) string { return s.Started.Local().Format("01-02 15:04") }, 3, 6},
	{"PROJECT", "PROJECT", func(s datalog.Session) string { return abridgePath(s.ProjectRoot, 30) },
		func(s datalog.Session) string { return abridge(filepath.Base(s.ProjectRoot), 12) }, 2, 5},
	{"ROUNDS", "RND", func(s datalog.Session) string { return strconv.Itoa(s.Totals.Rounds) },
		func(s datalog.Session) string { return strconv.Itoa(s.Totals.Rounds) }, 5, 1},
	{"TOOLS", "CALLS", func(s datalog.Session) string { return strconv.Itoa(s.Totals.ToolCalls) },
		func(s datalog.Session) string { return strconv.Itoa(s.Totals.ToolCalls) }, 6, 2},
	{"TOKENS", "TOK", func(s datalog.Session) string { return tokens(sessionTokens(s)) },
		func(s datalog.Session) string { return tokens(sessionTokens(s)) }, 7, 4},
	{"COST", "COST", func(s datalog.Session) string { return money(s.Totals.Cost, sessionTokens(s)) },
		func(s datalog.Session) string { return narrowMoney(s.Totals.Cost, sessionTokens(s)) }, 1, 3},
	{"STOP", "STOP", func(s datalog.Session) string { return s.StopReason },
		func(s datalog.Session) string { return s.StopReason }, 8, 0},
}

func sessionTokens(s datalog.Session) int { return s.Totals.TokensIn + s.Totals.TokensOut }

// shortID is an id's first n characters: a unique prefix is enough for
// keel log show.
func shortID(id string, n int) string { return datalog.ShortID(id)[:min(n, len(datalog.ShortID(id)))] }

// narrowMoney is money in at most 6 columns: "$1.25", "<$0.01", "n/a".
func narrowMoney(c float64, tokens int) string {
	switch {
	case !datalog.CostKnown(c, tokens):
		return "n/a"
	case c < 0.01:
		return "<$0.01"
	}
	return fmt.Sprintf("$%.2f", c)
}

// writeSessions writes keel log's table: to a pipe or file whole; on a
// terminal of width columns in the widest layout whose prompt still gets
// minPrompt columns (or its whole text): the wide cells, else the narrow
// ones, then without the least useful columns (ROUNDS, TOOLS, COST, ...).
// The prompt is cut to what is left, marked "…", never dropped.
func writeSessions(out io.Writer, list []datalog.Session) error {
	width := 0
	if f, ok := out.(*os.File); ok {
		width = terminalWidth(f)
	}
	_, err := io.WriteString(termtext.NewWriter(out), sessionTable(list, width))
	return err
}

// sessionTable lays the list out for width columns (0: no limit).
func sessionTable(list []datalog.Session, width int) string {
	prompts := make([]string, len(list))
	need := len("PROMPT")
	for i, s := range list {
		prompts[i] = abridge(s.FirstPrompt, 50)
		need = max(need, utf8.RuneCountInString(prompts[i]))
	}
	if width <= 0 {
		return layout(list, listColumns, 0, prompts, 0)
	}
	want := min(need, minPrompt)
	narrowest := len(listColumns)
	for level := 0; ; level++ {
		narrowed, dropped := min(level, narrowest), max(level-narrowest, 0)
		cols := keptColumns(dropped)
		room := width - tableWidth(list, cols, narrowed)
		if room >= want || len(cols) == len(keptColumns(99)) {
			return fit(layout(list, cols, narrowed, prompts, max(room, 2)), width)
		}
	}
}

// keptColumns are the columns left after dropping the first n.
func keptColumns(n int) []listColumn {
	var out []listColumn
	for _, c := range listColumns {
		if c.dropAt == 0 || c.dropAt > n {
			out = append(out, c)
		}
	}
	return out
}

// tableWidth is the columns' width with their gaps, before the prompt.
func tableWidth(list []datalog.Session, cols []listColumn, narrowed int) int {
	total := 0
	for _, w := range columnWidths(list, cols, narrowed) {
		total += w + len(listGap)
	}
	return total
}

func columnWidths(list []datalog.Session, cols []listColumn, narrowed int) []int {
	ws := make([]int, len(cols))
	for i, c := range cols {
		ws[i] = utf8.RuneCountInString(c.header(narrowed))
		for _, s := range list {
			ws[i] = max(ws[i], utf8.RuneCountInString(c.cell(s, narrowed)))
		}
	}
	return ws
}

// header is the column's head when the first narrowed columns (by
// narrowAt) are narrow.
func (c listColumn) header(narrowed int) string {
	if c.narrowAt <= narrowed {
		return c.narrowHead
	}
	return c.head
}

func (c listColumn) cell(s datalog.Session, narrowed int) string {
	if c.narrowAt <= narrowed {
		return termtext.Sanitize(c.narrow(s))
	}
	return termtext.Sanitize(c.wide(s))
}

// layout writes the header and a row per session, the prompt cut to room
// columns (0: whole).
func layout(list []datalog.Session, cols []listColumn, narrowed int, prompts []string, room int) string {
	ws := columnWidths(list, cols, narrowed)
	var b strings.Builder
	row := func(cells []string, prompt string) {
		for i, c := range cells {
			b.WriteString(c + strings.Repeat(" ", ws[i]-utf8.RuneCountInString(c)) + listGap)
		}
		if room > 0 {
			prompt = abridge(prompt, room)
		}
		b.WriteString(strings.TrimRight(prompt, " ") + "\n")
	}
	heads := make([]string, len(cols))
	for i, c := range cols {
		heads[i] = c.header(narrowed)
	}
	row(heads, "PROMPT")
	for i, s := range list {
		cells := make([]string, len(cols))
		for j, c := range cols {
			cells[j] = c.cell(s, narrowed)
		}
		row(cells, prompts[i])
	}
	return b.String()
}
