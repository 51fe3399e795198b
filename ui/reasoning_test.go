package ui

import (
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent"
)

func TestReasoningSlashCommands(t *testing.T) {
	m := newTestModel(t, 120, 30)
	m.runSlash("/notes")
	if !strings.Contains(plain(m), "working memory: no notes") {
		t.Errorf("/notes with no notes:\n%s", plain(m))
	}
	m.runSlash("/reflect")
	if !strings.Contains(plain(m), "no task is running: /reflect") {
		t.Errorf("/reflect with no task:\n%s", plain(m))
	}
	if got := m.slashMatches("/re"); len(got) < 2 {
		t.Errorf("/re completes to %v", got)
	}
}

func TestUnansweredCheckpointCard(t *testing.T) {
	m := newTestModel(t, 120, 40)
	cp := agent.Intervention{Seq: 1, Kind: "reflection", AtToolCall: 10, Why: "checkpoint after 10 tool calls", Message: "[Checkpoint: …]", Action: "inject"}
	send(m, events(agent.InterventionFired{Intervention: cp}, agent.InterventionAnswered{Seq: 1, Text: agent.UnansweredReply + "; the model wrote: I will go on."},
		agent.ReflectionRecorded{Seq: 1, Status: agent.ReflectionUnanswered}))
	if got := plain(m); !strings.Contains(got, "not answered: the next round brought no reflect call") || strings.Contains(got, "the model wrote") {
		t.Errorf("card:\n%s", plain(m))
	}
	r := agent.Reflection{Progress: "found the bug", Evidence: []string{"call_3"}, NextAction: "edit", Confidence: 0.7, Adjustment: "continue"}
	cp.Seq = 2
	send(m, events(agent.InterventionFired{Intervention: cp}, agent.InterventionAnswered{Seq: 2, Text: r.Text()},
		agent.ReflectionRecorded{Seq: 2, Status: agent.ReflectionAnswered, Reflection: &r}))
	for _, want := range []string{"progress    found the bug", "evidence    call_3", "next        edit", "confidence  0.70", "adjustment  continue"} {
		if !strings.Contains(plain(m), want) {
			t.Errorf("the card lacks %q:\n%s", want, plain(m))
		}
	}
	send(m, events(agent.LessonsOffered{Count: 1, Note: agent.LessonsMark + ":\n- task: fix it"}))
	if !strings.Contains(plain(m), "Lessons from earlier tasks in this project") {
		t.Errorf("the lessons note is not in the transcript:\n%s", plain(m))
	}
}
