package agent

import (
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llm"
)

// The tail's tool results are cut, largest first, just enough to save
// what is over, never under minResultKeep; the cut keeps head and tail
// and says what went and where it is whole.
func TestResultCapAndShortenResult(t *testing.T) {
	msgs := []llm.Message{
		{Role: llm.RoleTool, Content: strings.Repeat("a", 100<<10)},
		{Role: llm.RoleTool, Content: strings.Repeat("b", 10<<10)},
		{Role: llm.RoleUser, Content: strings.Repeat("u", 200<<10)}, // not a tool result: never cut
	}
	for _, over := range []int{1 << 10, 50 << 10, 95 << 10, 1 << 30} {
		c := resultCap(msgs, over)
		saved := 0
		for _, m := range msgs[:2] {
			saved += max(len(m.Content)-c-resultNoteRoom, 0)
		}
		if c < minResultKeep || (saved < over && c != minResultKeep) {
			t.Errorf("over %d: cap %d saves %d", over, c, saved)
		}
	}
	content := "HEAD\n" + strings.Repeat("middle line\n", 1000) + "TAIL\n"
	got := shortenResult(content, 4<<10, "s1")
	for _, want := range []string{"HEAD\n", "TAIL\n", "keel cut ", "keel log show s1"} {
		if !strings.Contains(got, want) {
			t.Errorf("shortened result lacks %q", want)
		}
	}
	if len(got) > 4<<10 {
		t.Errorf("shortened to %d bytes, want at most %d", len(got), 4<<10)
	}
}
