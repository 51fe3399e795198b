package main

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/keel-dev/keel/agent/llmtest"
)

// hostileAnswer would write the clipboard (OSC 52), retitle the window,
// clear the screen, move the cursor (C1 CSI) and hide its first words
// behind a carriage return, if printed raw.
const hostileAnswer = "Done \x1b]52;c;cm0gLXJmIH4K\x07\x1b]0;pwned\x07\x1b[2J\u009b1A\x07all tests pass\rI ran rm"

// hostileRound reads a file whose name carries escape sequences (as JSON
// escapes in the arguments, so the error result names it too).
var hostileRound = llmtest.ToolRound(llmtest.Call{ID: "r1", Name: "read_file", Args: `{"path":"x\u001b]0;t\u0007\u001b[2J.go"}`})

// terminalControl returns where s holds a character a terminal acts on:
// a C0 control but LF and TAB, DEL, a C1 control, or invalid UTF-8.
func terminalControl(s string) (string, bool) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			return s[max(i-30, 0):min(i+30, len(s))], true
		}
		i += size
	}
	return "", false
}

func TestModelTextNeverReachesTheTerminalRaw(t *testing.T) {
	home, dir := t.TempDir(), project(t)
	srv := llmtest.Start(t, llmtest.Rounds(hostileRound, llmtest.Round{Text: hostileAnswer, TextChunk: 4}))
	out, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "check", "--output-format", "text")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for name, s := range map[string]string{"stdout": out, "stderr": errOut} {
		if near, bad := terminalControl(s); bad {
			t.Errorf("headless text %s holds a control character near %q", name, near)
		}
	}
	if want := "Done ␛all tests pass\nI ran rm\n"; out != want {
		t.Errorf("stdout = %q, want %q", out, want)
	}
	if !strings.Contains(errOut, "read_file x␛") {
		t.Errorf("the progress line should name the sanitised path: %q", errOut)
	}

	run := func(args ...string) string {
		t.Helper()
		out, errOut, code := runKeelHome(t, home, nil, dir, "", args...)
		if code != 0 {
			t.Fatalf("keel %v: exit %d: %s", args, code, errOut)
		}
		return out
	}
	var list []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(run("log", "--json")), &list); err != nil || len(list) != 1 {
		t.Fatalf("log --json: %v %v", err, list)
	}
	id := list[0].ID
	for _, args := range [][]string{
		{"log", "show", id},
		{"log", "show", id, "--round", "2"},
		{"log", "export", id, "--format", "markdown"},
		{"log", "show", id, "--json"},
		{"log", "export", id},
	} {
		got := run(args...)
		if near, bad := terminalControl(got); bad {
			t.Errorf("keel %s holds a control character near %q", strings.Join(args, " "), near)
		}
		if !strings.Contains(got, "all tests pass") {
			t.Errorf("keel %s lacks the answer:\n%s", strings.Join(args, " "), got)
		}
	}
}

func TestHeadlessJSONKeepsTheAnswerWithEveryControlEscaped(t *testing.T) {
	for _, format := range []string{"json", "stream-json"} {
		srv := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound(hostileAnswer)))
		out, errOut, code := runKeel(t, srv, project(t), "", "-p", "check", "--output-format", format)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, errOut)
		}
		if near, bad := terminalControl(out); bad {
			t.Errorf("%s output holds a raw control character near %q", format, near)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		var res struct {
			Result string `json:"result"`
		}
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &res); err != nil || res.Result != hostileAnswer {
			t.Errorf("%s result = %q (%v), want the answer byte for byte", format, res.Result, err)
		}
	}
}
