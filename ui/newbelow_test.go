package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/ui/transcript"
)

// scrolledUp is a model at 80×24 whose transcript is longer than the
// screen, scrolled up a page.
func scrolledUp(t *testing.T) *Model {
	t.Helper()
	m := newTestModel(t, 80, 24)
	for i := range 30 {
		send(m, NoticeMsg{Text: fmt.Sprintf("earlier note %d", i)})
	}
	send(m, press("pgup"))
	if strings.Contains(plain(m), "earlier note 29") {
		t.Fatalf("pgup did not scroll up:\n%s", plain(m))
	}
	return m
}

// TestNewBelowIndicator: what arrives while the user has scrolled up is
// announced on the last line, counted and pluralised, until the view is
// back at the bottom.
func TestNewBelowIndicator(t *testing.T) {
	m := scrolledUp(t)
	if s := plain(m); strings.Contains(s, "new message") {
		t.Fatalf("an indicator before anything arrived:\n%s", s)
	}
	send(m, NoticeMsg{Text: "mcp server stopped"})
	if s := plain(m); !strings.Contains(s, "↓ 1 new message below") || strings.Contains(s, "mcp server stopped") {
		t.Fatalf("after one notice, want '1 new message below' and the notice off screen:\n%s", s)
	}
	send(m, events(agent.Notice{Text: "datalog write failed"}), ErrorMsg{Text: "something broke"})
	if s := plain(m); !strings.Contains(s, "↓ 3 new messages below") {
		t.Fatalf("after three, want '3 new messages below':\n%s", s)
	}
	send(m, press("end"))
	s := plain(m)
	if strings.Contains(s, "new message") || !strings.Contains(s, "something broke") {
		t.Fatalf("end shows the new entries and drops the indicator:\n%s", s)
	}
}

// TestNewBelowGoneAtBottom: scrolling down page by page to the bottom
// clears the indicator; following again, new entries are no longer
// counted.
func TestNewBelowGoneAtBottom(t *testing.T) {
	m := scrolledUp(t)
	send(m, NoticeMsg{Text: "late note"})
	if !strings.Contains(plain(m), "1 new message below") {
		t.Fatalf("no indicator:\n%s", plain(m))
	}
	for range 5 {
		send(m, press("pgdown"))
		plain(m) // each View records what was on screen
	}
	if s := plain(m); strings.Contains(s, "new message") || !strings.Contains(s, "late note") {
		t.Fatalf("at the bottom, want the note and no indicator:\n%s", s)
	}
	send(m, NoticeMsg{Text: "another"})
	if s := plain(m); strings.Contains(s, "new message") || !strings.Contains(s, "another") {
		t.Fatalf("following, want the new note shown and no indicator:\n%s", s)
	}
}

// TestNewBelowNotWhenFollowing: at the bottom nothing is announced.
func TestNewBelowNotWhenFollowing(t *testing.T) {
	m := newTestModel(t, 80, 24)
	for i := range 30 {
		send(m, NoticeMsg{Text: fmt.Sprintf("note %d", i)})
	}
	if s := plain(m); strings.Contains(s, "new message") {
		t.Fatalf("an indicator while following:\n%s", s)
	}
}

// TestNewOutputBelow: an answer that started before the user scrolled up
// and keeps streaming below the screen is announced as new output.
func TestNewOutputBelow(t *testing.T) {
	m := newTestModel(t, 80, 24)
	for i := range 30 {
		send(m, NoticeMsg{Text: fmt.Sprintf("earlier note %d", i)})
	}
	send(m, events(agent.TextDelta{Text: "The answer starts"}), transcript.FrameMsg{})
	send(m, press("pgup"))
	if s := plain(m); strings.Contains(s, "below ·") {
		t.Fatalf("an indicator before anything changed:\n%s", s)
	}
	send(m, events(agent.TextDelta{Text: " and goes on"}), transcript.FrameMsg{})
	if s := plain(m); !strings.Contains(s, "↓ new output below") {
		t.Fatalf("the streaming answer below is not announced:\n%s", s)
	}
	send(m, press("end"))
	if s := plain(m); strings.Contains(s, "below ·") || !strings.Contains(s, "The answer starts and goes on") {
		t.Fatalf("end shows the answer and drops the indicator:\n%s", s)
	}
}
