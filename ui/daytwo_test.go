package ui

import (
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent"
)

// The demo's input hint describes the story until it has run, then says
// how to quit (issue 32).
func TestDemoHintAfterTheStory(t *testing.T) {
	m := newTestModelWith(t, 120, 30, Options{Demo: true})
	if !strings.Contains(plain(m), "the demo model fixes a failing test") {
		t.Fatalf("the demo's first hint is missing:\n%s", plain(m))
	}
	m.running = true
	send(m, events(agent.TaskStopped{Reason: agent.StopCompleted}))
	got := plain(m)
	if strings.Contains(got, "fixes a failing test in about a minute") || !strings.Contains(got, "The demo has run") {
		t.Fatalf("after the story the hint still describes it:\n%s", got)
	}
}
