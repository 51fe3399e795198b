package headless

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"github.com/keel-dev/keel/agent"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/tools"
)

// hostileAnswer is a final answer that would write the clipboard (OSC 52),
// retitle the window, clear the screen, move the cursor with a C1 CSI,
// ring the bell and overwrite its first words with a carriage return.
const hostileAnswer = "Done. \x1b]52;c;cm0gLXJmIH4K\x07\x1b]0;pwned\x1b\\\x1b[2J\u009b1A\x07all tests pass\rI ran rm"

// hostileRun runs one task whose tool call, tool output and answer all
// carry escape sequences, in the given output format.
func hostileRun(t *testing.T, format string) (stdout, stderr string) {
	t.Helper()
	s, _ := newSession(t, llmtest.Rounds(
		llmtest.ToolRound(call("c1", "echo", `{"command":"ls \u001b]52;c;QUJD\u0007\u001b[2J"}`)),
		llmtest.Round{Text: hostileAnswer, TextChunk: 5}, // sequences split across deltas
	), func(o *agent.Options) {
		o.Tools = []tools.Tool{&fakeTool{name: "echo", class: tools.ReadOnly, run: func(context.Context, json.RawMessage) (tools.Result, error) {
			return tools.Result{Output: "out \x1b]0;t\x07", IsError: true}, nil
		}}}
	})
	var out, errOut bytes.Buffer
	h := Headless{Format: format, Stdout: &out, Stderr: &errOut}
	st, err := h.Run(context.Background(), s, "go")
	if err != nil || st.Reason != agent.StopCompleted {
		t.Fatalf("run: %v, %s", err, st.Reason)
	}
	return out.String(), errOut.String()
}

// terminalControl returns the first character of s a terminal could act
// on: a C0 control but LF and TAB, DEL, a C1 control, or invalid UTF-8.
func terminalControl(s string) (rune, bool) {
	for i, r := range s {
		if r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD") {
			return r, true
		}
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			return r, true
		}
	}
	return 0, false
}

func TestHeadlessTextOutputHasNoControlSequences(t *testing.T) {
	stdout, stderr := hostileRun(t, FormatText)
	for name, s := range map[string]string{"stdout": stdout, "stderr": stderr} {
		if r, bad := terminalControl(s); bad {
			t.Errorf("%s holds %U: %q", name, r, s)
		}
	}
	if want := "Done. ␛all tests pass\nI ran rm\n"; stdout != want {
		t.Errorf("stdout = %q, want %q", stdout, want)
	}
	if !strings.Contains(stderr, "echo ls ␛") {
		t.Errorf("the progress line lacks the sanitised command: %q", stderr)
	}
}

func TestHeadlessJSONEscapesEveryControl(t *testing.T) {
	for _, format := range []string{FormatJSON, FormatStreamJSON} {
		t.Run(format, func(t *testing.T) {
			stdout, stderr := hostileRun(t, format)
			if r, bad := terminalControl(stdout + stderr); bad {
				t.Fatalf("output holds %U raw: %q", r, stdout)
			}
			// The JSON still says exactly what the model said.
			sc := bufio.NewScanner(strings.NewReader(stdout))
			sc.Buffer(nil, 1<<20)
			var last struct {
				Result string `json:"result"`
			}
			for sc.Scan() {
				if err := json.Unmarshal(sc.Bytes(), &last); err != nil {
					t.Fatalf("line does not parse: %v\n%s", err, sc.Text())
				}
			}
			if last.Result != hostileAnswer {
				t.Fatalf("result = %q, want %q", last.Result, hostileAnswer)
			}
		})
	}
}
