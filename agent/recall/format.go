package recall

import (
	"fmt"
	"strings"

	"github.com/keel-dev/keel/agent/datalog"
)

// dateLayout dates a hit to the minute, in local time.
const dateLayout = "2006-01-02 15:04"

// format lays out the hits for the model: one line each with the date,
// the short session id, what the text was, and the snippet; the project
// when every project was searched.
func format(p params, hits []datalog.Hit) string {
	where := "this project's"
	if p.AllProjects {
		where = "all projects'"
	}
	if len(hits) == 0 {
		msg := fmt.Sprintf("nothing in %s past sessions matches %q", where, p.Query)
		if !p.AllProjects {
			msg += "; all_projects=true searches the other projects too"
		}
		return msg
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d match(es) for %q in %s past sessions, best first (matched words in **bold**):\n", len(hits), p.Query, where)
	for _, h := range hits {
		fmt.Fprintf(&b, "- %s session %s, %s", h.At.Local().Format(dateLayout), datalog.ShortID(h.SessionID), kindName(h.Kind))
		if p.AllProjects {
			fmt.Fprintf(&b, " (project %s)", h.Project)
		}
		fmt.Fprintf(&b, ": %s\n", h.Snippet)
	}
	return strings.TrimRight(b.String(), "\n")
}

// kindName says what a matching text was.
func kindName(kind string) string {
	switch kind {
	case datalog.RecallPrompt:
		return "the user asked"
	case datalog.RecallAnswer:
		return "the answer"
	case datalog.RecallPlan:
		return "plan goal"
	case datalog.RecallCalls:
		return "tool calls"
	}
	return kind
}
