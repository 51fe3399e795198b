package agent

import (
	"fmt"
	"strings"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llm"
)

// LessonsMark opens the note that offers a new task the lessons of
// earlier ones (episodic memory, seed 002).
const LessonsMark = "[keel] Lessons from earlier tasks in this project"

// LessonsOffered reports the lessons offered to a task, as the note the
// model received, for the transcript.
type LessonsOffered struct {
	Count int
	Note  string
}

func (LessonsOffered) event() {}

// offerLessons finds the project's lessons most relevant to the prompt and
// adds them to the history as one compact note after it.
func (t *task) offerLessons() {
	s := t.s
	if s.opts.Lessons <= 0 || s.opts.Project == "" {
		return
	}
	ls := s.opts.Recorder.lessons(s.opts.Project, t.prompt, s.opts.Lessons)
	if len(ls) == 0 {
		return
	}
	note := lessonsNote(ls)
	s.appendHistory(llm.Message{Role: llm.RoleUser, Content: note})
	s.out.send(LessonsOffered{Count: len(ls), Note: note})
}

func lessonsNote(ls []datalog.Lesson) string {
	var b strings.Builder
	b.WriteString(LessonsMark + " (the most relevant first; use what applies, ignore the rest):\n")
	for _, l := range ls {
		fmt.Fprintf(&b, "- %s\n", strings.ReplaceAll(strings.TrimSpace(l.Text), "\n", " | "))
	}
	return strings.TrimRight(b.String(), "\n")
}

// storeLesson keeps what a finished task taught, when it used tools.
func (t *task) storeLesson(st stop) {
	s := t.s
	if s.opts.Lessons <= 0 || t.limits.toolCalls == 0 || st.reason == StopCancelled {
		return
	}
	s.opts.Recorder.lesson(datalog.Lesson{Task: t.seq, Text: t.lesson(st), At: s.now()})
}

// lesson is the task's lesson in a few lines: the task, its outcome,
// what failed and why, what worked (from the plan, the reflections, the
// interventions and the answer).
func (t *task) lesson(st stop) string {
	var failed, worked []string
	if p := t.s.Plan(); p != nil {
		for _, step := range p.Steps {
			switch step.Status {
			case StepFailed:
				failed = append(failed, clip(step.Title+": "+orNone(step.Note, "no reason given"), 160))
			case StepCompleted:
				worked = append(worked, clip(step.Title, 80))
			}
		}
		if p.Strategy != "" && p.Status == PlanCompleted {
			worked = append(worked, "strategy "+clip(p.Strategy, 80))
		}
	}
	failed = append(failed, t.plan.failedPlans...)
	for _, in := range t.Interventions {
		if in.Kind != "reflection" {
			failed = append(failed, clip(in.Kind+": "+in.Why, 160))
		}
	}
	for _, r := range t.reflections {
		for _, bl := range nonEmpty(r.Blockers) {
			failed = append(failed, clip("blocker: "+bl, 160))
		}
	}
	if st.reason == StopCompleted && t.result != "" {
		worked = append(worked, "answer: "+clip(firstLine(t.result), 160))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "task: %s\noutcome: %s after %s", clip(firstLine(t.prompt), 200), st.reason, count(t.limits.toolCalls, "tool call"))
	if len(failed) > 0 {
		fmt.Fprintf(&b, "\nfailed: %s", strings.Join(dedupe(failed, 5), "; "))
	}
	if len(worked) > 0 {
		fmt.Fprintf(&b, "\nworked: %s", strings.Join(dedupe(worked, 6), "; "))
	}
	return b.String()
}

// clip shortens s to n bytes on a rune boundary, marking the cut.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// dedupe keeps the first max distinct items.
func dedupe(items []string, max int) []string {
	var out []string
	for _, it := range items {
		if !contains(out, it) && len(out) < max {
			out = append(out, it)
		}
	}
	return out
}
