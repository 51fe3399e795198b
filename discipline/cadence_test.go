package discipline

import (
	"slices"
	"testing"
)

func TestShouldReflect(t *testing.T) {
	tests := []struct {
		name                 string
		calls, last, cadence int
		wantDelta            int
		wantOK               bool
	}{
		{"cadence 0 never fires", 50, 0, 0, 0, false},
		{"cadence 0 at one call", 1, 0, 0, 0, false},
		{"negative cadence is off", 50, 0, -1, 0, false},
		{"below cadence", 9, 0, 10, 9, false},
		{"exactly at cadence", 10, 0, 10, 10, true},
		{"jump past cadence in one round", 13, 0, 10, 13, true},
		{"marker at 10 after landing at 12: due at 20, not 22", 20, 10, 10, 10, true},
		{"marker off a multiple (cadence changed): due at the next multiple", 14, 12, 7, 2, true},
		{"marker off a multiple: not before it", 13, 12, 7, 1, false},
		{"after a checkpoint at 10, not at 19", 19, 10, 10, 9, false},
		{"after a checkpoint at 10, at 20", 20, 10, 10, 10, true},
		{"checkpoint at 10 does not fire again at 10", 10, 10, 10, 0, false},
		{"marker ahead saturates at 0", 5, 10, 10, 0, false},
		{"cadence 1 fires every call", 1, 0, 1, 1, true},
		{"no calls yet", 0, 0, 10, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, ok := ShouldReflect(tt.calls, tt.last, tt.cadence)
			if d != tt.wantDelta || ok != tt.wantOK {
				t.Errorf("ShouldReflect(%d, %d, %d) = %d, %v; want %d, %v", tt.calls, tt.last, tt.cadence, d, ok, tt.wantDelta, tt.wantOK)
			}
		})
	}
}

// runCalls makes n distinct read-only calls, perRound per round, and
// returns the calls at which checkpoints fired.
func runCalls(t *testing.T, p Policy, x *session, n, perRound int) []int {
	t.Helper()
	var at []int
	for i := 0; i < n; {
		var round []ToolCall
		for j := 0; j < perRound && i < n; j++ {
			i++
			round = append(round, readCall("/w/f.go", "v1", i*10, i*10+9, 100000))
		}
		at = append(at, calls(of(x.round(round...), KindReflection))...)
	}
	return at
}

func TestCheckpointCadence(t *testing.T) {
	tests := []struct {
		name            string
		cadence, n, per int
		want            []int
	}{
		{"25 calls at cadence 10: after 10 and 20", 10, 25, 1, []int{10, 20}},
		{"cadence 0: none", 0, 25, 1, []int{}},
		{"three calls a round: after the rounds crossing 10, 20, 30 (the marker moves to the multiple)", 10, 31, 3, []int{12, 21, 30}},
		{"four calls a round", 10, 40, 4, []int{12, 20, 32, 40}},
		{"cadence 7, two calls a round", 7, 22, 2, []int{8, 14, 22}},
		{"13 calls in one round fire with delta 13", 10, 13, 13, []int{13}},
		{"9 calls: none", 10, 9, 1, []int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := quiet()
			p.ReflectionCadence = tt.cadence
			got := runCalls(t, p, newSession(t, p), tt.n, tt.per)
			if got == nil {
				got = []int{}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("checkpoints at %v, want %v", got, tt.want)
			}
		})
	}
}

func TestCheckpointDelta(t *testing.T) {
	p := quiet()
	p.ReflectionCadence = 10
	x := newSession(t, p)
	var batch []ToolCall
	for i := range 13 {
		batch = append(batch, readCall("/w/a.go", "v", i*10+1, i*10+10, 1000))
	}
	ins := of(x.round(batch...), KindReflection)
	if len(ins) != 1 || ins[0].Figures["delta"] != 13 || ins[0].AtToolCall != 13 {
		t.Fatalf("want one checkpoint with delta 13 at 13, got %v", ins)
	}
	if x.s.LastReflectionAt() != 10 {
		t.Errorf("marker = %d, want 10 (the multiple crossed)", x.s.LastReflectionAt())
	}
}

func TestNewTaskRestartsCount(t *testing.T) {
	p := quiet()
	p.ReflectionCadence = 10
	x := newSession(t, p)
	runCalls(t, p, x, 15, 1)
	x.s = NewTask(x.s)
	if x.s.ToolCalls() != 0 || x.s.LastReflectionAt() != 0 {
		t.Fatalf("NewTask kept tool count %d, marker %d", x.s.ToolCalls(), x.s.LastReflectionAt())
	}
	if got := runCalls(t, p, x, 12, 1); !slices.Equal(got, []int{10}) {
		t.Errorf("after a new task checkpoints at %v, want [10]", got)
	}
}

func TestNextCheckpointAt(t *testing.T) {
	for _, tt := range []struct{ last, cadence, want int }{
		{0, 10, 10}, {10, 10, 20}, {12, 10, 20}, {19, 10, 20}, {20, 10, 30}, {0, 0, 0}, {10, 7, 14}, {-3, 5, 5},
	} {
		if got := NextCheckpointAt(tt.last, tt.cadence); got != tt.want {
			t.Errorf("NextCheckpointAt(%d, %d) = %d, want %d", tt.last, tt.cadence, got, tt.want)
		}
	}
}

func TestNoCheckpointWhenTurnEnds(t *testing.T) {
	p := quiet()
	p.ReflectionCadence = 10
	x := newSession(t, p)
	runCalls(t, p, x, 9, 1)
	x.p.ReflectionCadence = 5 // /cadence 5 mid-task: due, but the model is done
	if ins := of(x.end(), KindReflection); len(ins) != 0 {
		t.Errorf("checkpoint on a finished turn: %v", ins)
	}
}

// The card says why a checkpoint came after other than cadence calls.
func TestCheckpointWhy(t *testing.T) {
	tests := []struct {
		at, delta, cadence int
		want               string
	}{
		{10, 10, 10, "checkpoint after 10 tool calls (cadence 10)"},
		{4, 4, 3, "checkpoint after 4 tool calls (cadence 3: due at call 3, the round's calls went on to call 4)"},
		{6, 2, 3, "checkpoint after 2 tool calls (cadence 3: due at call 6; the last one came at call 4, after its round went past call 3)"},
		{1, 1, 1, "checkpoint after 1 tool call (cadence 1)"},
	}
	for _, tt := range tests {
		if got := checkpointWhy(tt.at, tt.delta, tt.cadence); got != tt.want {
			t.Errorf("checkpointWhy(%d, %d, %d) = %q, want %q", tt.at, tt.delta, tt.cadence, got, tt.want)
		}
	}
}
