package tools

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// Tool.Run and Policy.Decide must not write into their arguments: for a
// large call they are a read-only view of the string the agent's history
// holds (agent's outcome.args), so a write would change the history
// behind Go's back. Every built-in tool runs here on arguments past the
// size where the agent shares them, valid ones for the tools that take
// large content (the streaming write included), and the bytes must be
// the same afterwards.
func TestToolsAndPolicyLeaveTheirArgumentsAlone(t *testing.T) {
	big := strings.Repeat("a line the model wrote\n", bigArgs/16)
	huge := strings.Repeat("a line the model wrote\n", maxDiffBytes/16) // the streaming write
	valid := map[string][]map[string]any{
		NameWriteFile: {{"path": "new.txt", "content": big}, {"path": "huge.txt", "content": huge}},
		NameEditFile:  {{"path": "a.go", "old_string": "package a", "new_string": "package a\n\n/*\n" + big + "*/"}},
		NameReadFile:  {{"path": "a.go", "offset": 1, "limit": 5, "note": big}},
	}
	ws := newTestWS(t, map[string]string{"a.go": "package a\n"})
	call(t, ws, Options{}, NameReadFile, m{"path": "a.go"}) // edits need a read first
	policy, err := NewPolicy(ws, PolicyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range New(ws, Options{}) {
		argSets := valid[tool.Name()]
		// Every tool also gets an object of its own keys and more, all
		// long strings: decoding refuses it, after reading it.
		argSets = append(argSets, map[string]any{"path": "a.go", "pattern": big, "command": "true", "content": big})
		for i, args := range argSets {
			raw, err := json.Marshal(args)
			if err != nil {
				t.Fatal(err)
			}
			if len(raw) <= bigArgs {
				t.Fatalf("%s: %d bytes of arguments, want more than %d", tool.Name(), len(raw), bigArgs)
			}
			was := bytes.Clone(raw)
			policy.Decide(tool.Name(), raw)
			if _, err := tool.Run(WithWrites(t.Context()), raw); err != nil {
				t.Fatalf("%s: harness error: %v", tool.Name(), err)
			}
			if !bytes.Equal(raw, was) {
				t.Errorf("%s (arguments %d) wrote into its arguments", tool.Name(), i)
			}
		}
	}
}
