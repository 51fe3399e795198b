package planpanel

import (
	"strings"

	"github.com/keel-dev/keel/agent"
)

// stepMarks is the dim line under a step: its id when other steps can
// name it, what it waits for, its fallback, and whether it may fail or
// has side effects ("" when there is nothing to say).
func stepMarks(s agent.Step) string {
	var m []string
	if len(s.DependsOn) > 0 || s.Fallback != "" || s.CanFail || s.SideEffects {
		m = append(m, "#"+s.ID)
	}
	if len(s.DependsOn) > 0 {
		m = append(m, "after "+strings.Join(prefixed(s.DependsOn), " "))
	}
	if s.Fallback != "" {
		m = append(m, "fallback #"+s.Fallback)
	}
	if s.CanFail {
		m = append(m, "may fail")
	}
	if s.SideEffects {
		m = append(m, "⚠ side effects")
	}
	return strings.Join(m, " · ")
}

func prefixed(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = "#" + id
	}
	return out
}
