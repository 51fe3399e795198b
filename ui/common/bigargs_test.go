package common

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent"
)

// A large call's content reaches the transcript as a notice, its path
// whole; small calls are untouched.
func TestTheTranscriptKeepsBigArgumentsShort(t *testing.T) {
	big, _ := json.Marshal(map[string]string{"path": "gen/out.go", "content": strings.Repeat("func f() {}\n", 1<<17)})
	small := `{"path":"a.go","content":"package a\n"}`
	tests := []struct {
		name string
		ev   agent.Event
		args func(agent.Event) string
	}{
		{"started", agent.ToolStarted{CallID: "c", Name: "write_file", Args: string(big)}, func(e agent.Event) string { return e.(agent.ToolStarted).Args }},
		{"finished", agent.ToolFinished{CallID: "c", Name: "write_file", Args: string(big)}, func(e agent.Event) string { return e.(agent.ToolFinished).Args }},
		{"a subagent's", agent.SubagentEvent{Agent: "general", Event: agent.ToolStarted{CallID: "c", Name: "write_file", Args: string(big)}},
			func(e agent.Event) string { return e.(agent.SubagentEvent).Event.(agent.ToolStarted).Args }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.args(CleanEvent(tt.ev))
			var m map[string]string
			if err := json.Unmarshal([]byte(got), &m); err != nil {
				t.Fatalf("not JSON any more: %v: %.200s", err, got)
			}
			if len(got) > 1<<10 || m["path"] != "gen/out.go" || !strings.Contains(m["content"], "1.5 MiB of content not shown") {
				t.Errorf("%d bytes, path %q, content %.100q", len(got), m["path"], m["content"])
			}
		})
	}
	if got := CleanEvent(agent.ToolStarted{Args: small}).(agent.ToolStarted).Args; got != small {
		t.Errorf("small arguments changed: %q", got)
	}
}
