package keellog

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/keel-dev/keel/agent/datalog"
)

// taskPath is one task's states in order, from its rounds' transitions.
type taskPath struct {
	task   int
	states []string
	errors []string // internal errors recorded
}

// taskPaths groups a session's transitions by task, in order.
func taskPaths(d *datalog.SessionDetail) []taskPath {
	var out []taskPath
	for _, rd := range d.Rounds {
		if len(out) == 0 || out[len(out)-1].task != rd.Round.TaskSeq {
			out = append(out, taskPath{task: rd.Round.TaskSeq})
		}
		p := &out[len(out)-1]
		for _, st := range rd.Transitions {
			if what, ok := strings.CutPrefix(st.Detail, "internal error: "); ok {
				p.errors = append(p.errors, what)
				continue
			}
			if len(p.states) == 0 {
				p.states = append(p.states, st.From)
			}
			p.states = append(p.states, st.To)
		}
	}
	return out
}

// compactPath renders states joined by arrows, a cycle repeated in a row
// written once with its count: idle → recognizing_intent →
// (executing → observing)×4 → synthesizing → done.
func compactPath(states []string) string {
	var parts []string
	for i := 0; i < len(states); {
		l, k := bestCycle(states, i)
		switch {
		case k > 1 && l == 1:
			parts = append(parts, fmt.Sprintf("%s×%d", states[i], k))
		case k > 1:
			parts = append(parts, fmt.Sprintf("(%s)×%d", strings.Join(states[i:i+l], " → "), k))
		default:
			parts = append(parts, states[i])
		}
		i += l * k
	}
	return strings.Join(parts, " → ")
}

// bestCycle finds at i the cycle of 1 to 4 states repeated the most times
// in a row (the shortest on a tie); k is 1 when none repeats.
func bestCycle(states []string, i int) (l, k int) {
	l, k = 1, 1
	for n := 1; n <= 4; n++ {
		reps := 1
		for i+(reps+1)*n <= len(states) && equal(states[i:i+n], states[i+reps*n:i+(reps+1)*n]) {
			reps++
		}
		if reps > 1 && reps*n > l*k {
			l, k = n, reps
		}
	}
	return l, k
}

func equal(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// printPaths prints each task's path through the state machine, one line.
func printPaths(w io.Writer, d *datalog.SessionDetail) {
	for _, p := range taskPaths(d) {
		if len(p.states) > 0 {
			fmt.Fprintf(w, "  task %d states: %s\n", p.task, compactPath(p.states))
		}
		for _, e := range p.errors {
			fmt.Fprintf(w, "  task %d INTERNAL ERROR: %s\n", p.task, e)
		}
	}
}

// planView is the part of a stored plan a revision's diff compares.
type planView struct {
	Goal     string `json:"goal"`
	Strategy string `json:"strategy"`
	Status   string `json:"status"`
	Attempt  int    `json:"attempt"`
	Revision int    `json:"revision"`
	Steps    []struct {
		ID          string   `json:"id"`
		Title       string   `json:"title"`
		Status      string   `json:"status"`
		DependsOn   []string `json:"depends_on"`
		CanFail     bool     `json:"can_fail"`
		Fallback    string   `json:"fallback"`
		SideEffects bool     `json:"side_effects"`
		Parent      string   `json:"parent"`
	} `json:"steps"`
}

// planDiff says what changed from prev (nil: the first plan) to next,
// one short clause per change.
func planDiff(prev, next *planView) []string {
	if prev == nil {
		out := []string{fmt.Sprintf("goal %q", next.Goal)}
		if next.Strategy != "" {
			out = append(out, fmt.Sprintf("strategy %q", next.Strategy))
		}
		for _, st := range next.Steps {
			out = append(out, "+ "+stepText(st.ID, st.Title, st.Status, marks(st.DependsOn, st.CanFail, st.Fallback, st.SideEffects, st.Parent)))
		}
		return out
	}
	var out []string
	if prev.Goal != next.Goal {
		out = append(out, fmt.Sprintf("goal %q → %q", prev.Goal, next.Goal))
	}
	if prev.Strategy != next.Strategy {
		out = append(out, fmt.Sprintf("strategy %q → %q", prev.Strategy, next.Strategy))
	}
	was := map[string]string{}
	for _, st := range prev.Steps {
		was[st.ID+"\x00"+st.Title] = st.Status
	}
	now := map[string]bool{}
	for _, st := range next.Steps {
		key := st.ID + "\x00" + st.Title
		now[key] = true
		old, ok := was[key]
		switch {
		case !ok:
			out = append(out, "+ "+stepText(st.ID, st.Title, st.Status, marks(st.DependsOn, st.CanFail, st.Fallback, st.SideEffects, st.Parent)))
		case old != st.Status:
			out = append(out, fmt.Sprintf("%s: %s → %s", stepText(st.ID, st.Title, "", ""), old, st.Status))
		}
	}
	for _, st := range prev.Steps {
		if !now[st.ID+"\x00"+st.Title] {
			out = append(out, "- "+stepText(st.ID, st.Title, "", ""))
		}
	}
	if prev.Status != next.Status {
		out = append(out, fmt.Sprintf("plan %s → %s", prev.Status, next.Status))
	}
	if len(out) == 0 {
		out = append(out, "no change")
	}
	return out
}

func stepText(id, title, status, marks string) string {
	s := fmt.Sprintf("%q", title)
	if id != "" {
		s = id + " " + s
	}
	if status != "" {
		s += " [" + status + "]"
	}
	return s + marks
}

// marks are a step's dependencies, fallback and flags, as the panel shows them.
func marks(deps []string, canFail bool, fallback string, side bool, parent string) string {
	var m []string
	if parent != "" {
		m = append(m, "under "+parent)
	}
	if len(deps) > 0 {
		m = append(m, "after "+strings.Join(deps, ","))
	}
	if fallback != "" {
		m = append(m, "fallback "+fallback)
	}
	if canFail {
		m = append(m, "may fail")
	}
	if side {
		m = append(m, "side effects")
	}
	if len(m) == 0 {
		return ""
	}
	return " (" + strings.Join(m, "; ") + ")"
}

// planPrinter prints plan snapshots as revisions with what changed since
// the one before.
type planPrinter struct{ prev *planView }

func (pp *planPrinter) print(w io.Writer, p datalog.PlanSnapshot, cut func(string) string) {
	var v planView
	if json.Unmarshal(p.Plan, &v) != nil {
		fmt.Fprintf(w, "  plan  attempt %d %s %s\n", p.Attempt, p.Status, cut(string(p.Plan)))
		return
	}
	rev := ""
	if v.Revision > 0 {
		rev = fmt.Sprintf("revision %d, ", v.Revision)
	}
	fmt.Fprintf(w, "  plan  %sattempt %d, %s: %s\n", rev, v.Attempt, v.Status, cut(strings.Join(planDiff(pp.prev, &v), "; ")))
	pp.prev = &v
}

// printReflections prints a round's checkpoint answers.
func printReflections(w io.Writer, rs []datalog.Reflection, cut func(string) string) {
	for _, r := range rs {
		if r.Status == datalog.ReflectionUnanswered {
			fmt.Fprintf(w, "  reflect  checkpoint of round %d UNANSWERED: no reflect call\n", r.CheckpointRound)
			continue
		}
		var body struct {
			Progress string   `json:"progress"`
			Blockers []string `json:"blockers"`
			Next     string   `json:"next_action"`
		}
		_ = json.Unmarshal(r.JSON, &body)
		of := fmt.Sprintf("checkpoint of round %d", r.CheckpointRound)
		if r.Status == datalog.ReflectionUnprompted {
			of = "unprompted"
		}
		fmt.Fprintf(w, "  reflect  %s: %s, confidence %.2f: %s\n", of, r.Adjustment, r.Confidence, cut(body.Progress))
		if len(body.Blockers) > 0 {
			fmt.Fprintf(w, "           blockers: %s\n", cut(strings.Join(body.Blockers, "; ")))
		}
	}
}
