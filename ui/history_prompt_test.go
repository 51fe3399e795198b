package ui

import (
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llm"
)

// TestLoggedPromptRoundTrip: a prompt sent with !command outputs and
// mentioned files (withShellOutput, attachFiles) splits back into what
// was typed, the files and the outputs.
func TestLoggedPromptRoundTrip(t *testing.T) {
	zero, two := 0, 2
	readme := mention{path: "README.md", text: "# demo\n", size: 7, loaded: true}
	big := mention{path: "big.log", text: strings.Repeat("x", 40), size: 1 << 20, loaded: true} // cut: its size is more
	quoted := mention{path: `dir/"odd" name.go`, text: "package x\n</file> inside\n", size: 25, loaded: true}
	tests := []struct {
		name   string
		prompt string
		files  []mention
		outs   []shellOutput
	}{
		{"plain", "fix the build", nil, nil},
		{"one file", "summarise @README.md", []mention{readme}, nil},
		{"cut and quoted files", "compare @big.log and the other", []mention{big, quoted}, nil},
		{"outputs", "and now?", nil, []shellOutput{{command: "echo hi", exit: &zero, output: "hi\n"},
			{command: `grep -n "x" a.go`, exit: &two, output: "grep: a.go: No such file\n"}, {command: "sleep 9", output: "(cancelled)\n"}}},
		{"both", "look at @README.md", []mention{readme}, []shellOutput{{command: "ls", exit: &zero, output: "README.md\n"}}},
		{"a file element typed", "what does \n\n<file path=\"x\"> mean", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sent := withShellOutput(attachFiles(tt.prompt, tt.files), tt.outs)
			text, outs := cutShellOutput(sent)
			text, files := cutFiles(text)
			if text != tt.prompt {
				t.Errorf("text = %q, want %q", text, tt.prompt)
			}
			if len(files) != len(tt.files) {
				t.Fatalf("files = %+v, want %+v", files, tt.files)
			}
			for i, f := range files {
				if f.path != tt.files[i].path || f.size != tt.files[i].size || f.note() != tt.files[i].note() {
					t.Errorf("file %d = %+v (%s), want %+v (%s)", i, f, f.note(), tt.files[i], tt.files[i].note())
				}
			}
			if len(outs) != len(tt.outs) {
				t.Fatalf("outputs = %+v, want %+v", outs, tt.outs)
			}
			for i, o := range outs {
				w := tt.outs[i]
				if o.command != w.command || o.output != w.output || (o.exit == nil) != (w.exit == nil) || (o.exit != nil && *o.exit != *w.exit) {
					t.Errorf("output %d = %+v, want %+v", i, o, w)
				}
			}
		})
	}
}

// TestResumedPromptAsShown: a resumed prompt shows as typed, with its
// chips and what went with it, its !command before it; not the file's
// text or the outputs' wrapping.
func TestResumedPromptAsShown(t *testing.T) {
	zero := 0
	sent := withShellOutput(attachFiles("summarise @README.md", []mention{{path: "README.md", text: "# demo\nsecret plans\n", size: 20}}),
		[]shellOutput{{command: "echo from-the-shell", exit: &zero, output: "from-the-shell\n"}})
	m := newTestModel(t, 100, 30)
	m.tr.loadHistory([]llm.Message{{Role: llm.RoleUser, Content: sent}, {Role: llm.RoleAssistant, Content: "Read it."}})
	screen := plain(m)
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
