package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent"
)

// TestFailedPreviewOnScreen: the collapsed failed command shows its
// failure, not "? example.com/greet [no test files]".
func TestFailedPreviewOnScreen(t *testing.T) {
	out, err := os.ReadFile(filepath.Join("transcript", "testdata", "failures", "gotest_fail.txt"))
	if err != nil {
		t.Fatal(err)
	}
	m := newTestModel(t, 100, 30)
	prompt(m, "run the tests")
	args := `{"command":"go test ./..."}`
	send(m, events(
		agent.ToolStarted{CallID: "c1", Name: "run_command", Args: args},
		agent.ToolFinished{CallID: "c1", Name: "run_command", Args: args, Output: string(out), IsError: true, ExitCode: intp(1), Duration: 1700 * time.Millisecond},
	))
	screen := plain(m)
	for _, want := range []string{"--- FAIL: TestHello (0.00s)", `hello_test.go:7: Hello() = "hi", want "hello"`, "FAIL    example.com/greet/hello    0.015s"} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "no test files") {
		t.Errorf("screen shows the first output line:\n%s", screen)
	}
}
