package transcript

import (
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/ui/attach"
	"github.com/keel-dev/keel/ui/theme"
)

// TestResumedPromptAsShown: a resumed prompt shows as typed, with its
// chips and what went with it, its !command before it; not the file's
// text or the outputs' wrapping.
func TestResumedPromptAsShown(t *testing.T) {
	zero := 0
	sent := attach.Compose("summarise @README.md", []attach.File{{Path: "README.md", Text: "# demo\nsecret plans\n", Size: 20}},
		[]attach.Output{{Command: "echo from-the-shell", Exit: &zero, Output: "from-the-shell\n"}})
	m := newTestTranscript()
	m.LoadHistory([]llm.Message{{Role: llm.RoleUser, Content: sent}, {Role: llm.RoleAssistant, Content: "Read it."}})
	screen := screen(m, 100, 30)
	for _, want := range []string{"✓ ! echo from-the-shell  exit 0 · output goes with your next prompt", "from-the-shell",
		"› summarise @README.md", "with README.md (20 B) · output of !echo from-the-shell", "Read it."} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	for _, bad := range []string{"secret plans", "<file", "user_command_output", "Before this message", "0ms"} {
		if strings.Contains(screen, bad) {
			t.Errorf("screen shows %q:\n%s", bad, screen)
		}
	}
}

// TestRestyleSwitchesTheMarkdown: new styles (a light background found
// after start) reach the answers' markdown, and every cached rendering is
// drawn again.
func TestRestyleSwitchesTheMarkdown(t *testing.T) {
	m := newTestTranscript()
	m.AppendAnswer("Some **bold** text")
	m.EndStream()
	before := strings.Join(m.View(60, 5, ""), "\n")
	m.Restyle(theme.New(false, false))
	if got := m.r.md.Style(); got != "light" {
		t.Fatalf("the markdown draws with %q after a light restyle", got)
	}
	if after := strings.Join(m.View(60, 5, ""), "\n"); after == before {
		t.Fatal("the answer kept its dark rendering")
	}
}
