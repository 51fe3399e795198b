package agent

import (
	"strings"
	"testing"
)

// Big arguments reach the guards as a bounded digest: equal ones still
// match (the repeat guard fires on them), different ones do not, and small
// ones are normalized as before.
func TestGuardArgs(t *testing.T) {
	big := `{"path":"a.go","content":"` + strings.Repeat("x", 1<<20) + `"}`
	other := `{"path":"a.go","content":"` + strings.Repeat("y", 1<<20) + `"}`
	if g := guardArgs(big); len(g) > 400 || g != guardArgs(big) || g == guardArgs(other) {
		t.Errorf("big args: %d bytes, stable %v, distinct %v", len(g), g == guardArgs(big), g != guardArgs(other))
	}
	if g := guardArgs(`{ "path" : "a.go" }`); g != `{"path":"a.go"}` {
		t.Errorf("small args = %q, want them normalized", g)
	}
}
