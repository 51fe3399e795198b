package agent

import (
	"os"
	"strings"
	"testing"
)

// TestWriteMermaid refreshes the diagram in docs/ARCHITECTURE.md when
// KEEL_WRITE_DIAGRAM=1 (go test ./agent -run TestWriteMermaid).
func TestWriteMermaid(t *testing.T) {
	if os.Getenv("KEEL_WRITE_DIAGRAM") == "" {
		t.Skip("set KEEL_WRITE_DIAGRAM=1 to rewrite the diagram")
	}
	path := "../docs/ARCHITECTURE.md"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	start := strings.Index(s, "```mermaid\n")
	end := strings.Index(s[start+1:], "```")
	if start < 0 || end < 0 {
		t.Fatal("no mermaid block")
	}
	s = s[:start] + "```mermaid\n" + Mermaid() + s[start+1+end:]
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
