package discipline

import (
	"strings"
	"testing"
)

func TestCheckpointNow(t *testing.T) {
	p := quiet()
	p.ReflectionCadence = 10
	var s State
	_, s = AfterRound(RoundSummary{Calls: []ToolCall{{Name: "read_file", Args: "a", ResultHash: "1"}, {Name: "read_file", Args: "b", ResultHash: "2"}}, ToolCalls: 2}, p, s)
	in, next := CheckpointNow(s, p)
	if in.Kind != KindReflection || in.AtToolCall != 2 || !strings.Contains(in.Why, "/reflect") || !strings.Contains(in.Message, "In the last 2 tool calls") {
		t.Fatalf("forced checkpoint %+v", in)
	}
	if s.LastReflectionAt() != 0 || next.LastReflectionAt() != 2 {
		t.Errorf("markers: given %d, next %d", s.LastReflectionAt(), next.LastReflectionAt())
	}
	// the next scheduled one is still at the multiple of the cadence
	if got := NextCheckpointAt(next.LastReflectionAt(), p.ReflectionCadence); got != 10 {
		t.Errorf("next checkpoint at %d", got)
	}
	// with checkpoints off, /reflect still works
	p.ReflectionCadence = 0
	if in, _ := CheckpointNow(s, p); in.Message == "" {
		t.Error("no message with the cadence off")
	}
}
