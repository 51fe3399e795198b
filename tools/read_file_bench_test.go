package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkReadFileSmall is one read_file of a 20-line file, the call
// keelbench's workload makes every round.
func BenchmarkReadFileSmall(b *testing.B) {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f0.go"), []byte(strings.Repeat("package p // a line\n", 20)), 0o644); err != nil {
		b.Fatal(err)
	}
	ws, err := NewWorkspace(dir)
	if err != nil {
		b.Fatal(err)
	}
	tool := newReadFile(ws)
	args := []byte(`{"path":"f0.go"}`)
	b.ResetTimer()
	for range b.N {
		if _, err := tool.Run(context.Background(), args); err != nil {
			b.Fatal(err)
		}
	}
}
