package secretscan

import (
	"os"
	"strings"
	"testing"
)

// BenchmarkRedact32K is a 32 KB tool output without a secret (Go source),
// the common case the datalog's writer redacts between rounds.
func BenchmarkRedact32K(b *testing.B) {
	src, err := os.ReadFile("scan.go")
	if err != nil {
		b.Fatal(err)
	}
	text := strings.Repeat(string(src), 32<<10/len(src)+1)[:32<<10]
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Redact(text)
	}
}
