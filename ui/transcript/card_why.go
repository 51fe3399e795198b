package transcript

import (
	"fmt"
	"sort"
	"strings"

	"github.com/keel-dev/keel/agent"
)

// checkpointWhy says in words why a checkpoint came and what happened
// since the last one, from its figures (so a resumed card, whose Why is
// not kept, says it too): "keel takes stock every 3 tool calls", "you
// asked for it with /reflect". It replaces the "cadence=3 delta=4 …" line
// a user took for debug output. nil when the figures say neither.
func checkpointWhy(in *agent.Intervention) []string {
	f := in.Figures
	cadence, delta, at := f["cadence"], f["delta"], in.AtToolCall
	var lines []string
	switch {
	case f["forced"] > 0:
		lines = []string{fmt.Sprintf("why: you asked for it with /reflect, after %s", countOf(delta, "tool call"))}
	case cadence > 0:
		lines = []string{fmt.Sprintf("why: keel takes stock every %s", countOf(cadence, "tool call"))}
		if d := cadenceDetail(at, delta, cadence); d != "" {
			lines = append(lines, d)
		}
	default:
		return nil
	}
	if since := sinceLast(f); since != "" {
		lines = append(lines, "since the last checkpoint: "+since)
	}
	return lines
}

// cadenceDetail explains a checkpoint that did not come exactly one
// cadence after the last: checkpoints are due at each multiple of the
// cadence, and a round of several calls can run past one.
func cadenceDetail(at, delta, cadence int) string {
	due := at / cadence * cadence
	switch last := at - delta; {
	case delta > cadence:
		return fmt.Sprintf("this one came after %d: due at call %d, the round's calls went on to call %d", delta, due, at)
	case delta < cadence && last > 0:
		return fmt.Sprintf("this one came after %d: due at call %d, the last one came late, at call %d", delta, due, last)
	case delta < cadence:
		return fmt.Sprintf("this one came after %s", countOf(delta, "tool call"))
	}
	return ""
}

// sinceLast is the activity a checkpoint's figures count: "2 reads, 1
// edit, 1 command, 1 failed; no plan progress for 7 calls".
func sinceLast(f map[string]int) string {
	var parts []string
	for _, k := range []struct{ key, one string }{{"reads", "read"}, {"edits", "edit"}, {"commands", "command"}} {
		if n, ok := f[k.key]; ok {
			parts = append(parts, countOf(n, k.one))
		}
	}
	if n, ok := f["failed"]; ok {
		parts = append(parts, fmt.Sprintf("%d failed", n))
	}
	s := strings.Join(parts, ", ")
	if n := f["since_progress"]; n > 0 {
		s += fmt.Sprintf("; no plan step done for %s", countOf(n, "call"))
	}
	return strings.TrimPrefix(s, "; ")
}

// countOf is "1 edit", "3 edits".
func countOf(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %ss", n, one)
}

// guardWords say a guard's figures in words, for a card whose reason was
// not kept; each needs every figure it names.
var guardWords = map[string]struct {
	keys   []string
	format string
}{
	"reread":        {[]string{"times", "from", "to"}, "returned the same lines %d times (lines %d-%d)"},
	"monologue":     {[]string{"answers", "warn_at"}, "the same answer %d times in a row with no tool call (warn at %d)"},
	"error_streak":  {[]string{"streak", "warn_at"}, "failed %d times in a row (warn at %d)"},
	"rerun":         {[]string{"runs"}, "failed %d times with nothing changed between the runs"},
	"job_poll":      {[]string{"polls", "every"}, "%d polls in a row with no new output (nudge every %d)"},
	"decompose":     {[]string{"calls", "decompose_calls"}, "%d tool calls on one step with no edit (decompose at %d)"},
	"plan_continue": {[]string{"open", "steps"}, "%d of %d plan steps open"},
	"repeat":        {[]string{"repeats", "warn_at"}, "an identical result %d times with nothing changed (warn at %d)"},
	"verify":        {[]string{"files"}, "%d changed files unverified"},
	"stall":         {[]string{"calls", "stall_calls"}, "%d tool calls with no edit and no plan step completed (nudge every %d)"},
}

// guardFigures is a guard's figures in words, or as "name 3, other 4"
// for a kind or figures not known here; "" when it has none.
func guardFigures(kind string, f map[string]int) string {
	if len(f) == 0 {
		return ""
	}
	if w, ok := guardWords[kind]; ok {
		args := make([]any, 0, len(w.keys))
		for _, k := range w.keys {
			if n, ok := f[k]; ok {
				args = append(args, n)
			}
		}
		if len(args) == len(w.keys) {
			return fmt.Sprintf(w.format, args...)
		}
	}
	keys := make([]string, 0, len(f))
	for k := range f {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", strings.ReplaceAll(k, "_", " "), f[k])
	}
	return strings.Join(parts, ", ")
}
