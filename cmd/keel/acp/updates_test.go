package acp

import (
	"testing"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/tools"
)

// A write keel streamed to the file (over 2 MB) kept no content after:
// the editor gets the tool's output, not a diff that shows the file
// emptied; an ordinary write shows its diff.
func TestToolContentOfAStreamedWrite(t *testing.T) {
	tests := []struct {
		name     string
		change   tools.FileChange
		wantDiff bool
	}{
		{"ordinary write", tools.FileChange{Path: "/p/a.go", Existed: true, Before: []byte("a\n"), After: []byte("b\n")}, true},
		{"streamed write", tools.FileChange{Path: "/p/big.go", Existed: true, Before: []byte("a\n"), AfterNotKept: true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := toolContent(agent.ToolFinished{Output: "updated big.go (3 lines, 3.0 MiB)", Changes: []tools.FileChange{tt.change}})
			if len(out) != 1 {
				t.Fatalf("%d contents, want 1", len(out))
			}
			if gotDiff := out[0].Diff != nil; gotDiff != tt.wantDiff {
				t.Errorf("a diff: %v, want %v (%+v)", gotDiff, tt.wantDiff, out[0])
			}
		})
	}
}
