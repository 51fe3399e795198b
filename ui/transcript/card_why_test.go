package transcript

import (
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent"
)

// A checkpoint card says in words why it came, never as "cadence=3
// delta=4 …" (issue 32 leftovers), for every way one falls.
func TestCheckpointCardSaysWhyInWords(t *testing.T) {
	cases := []struct {
		name  string
		at    int
		figs  map[string]int
		want  []string
		never []string
	}{
		{"on the cadence", 3, map[string]int{"cadence": 3, "delta": 3, "reads": 2, "edits": 1, "commands": 0, "failed": 0},
			[]string{"why: keel takes stock every 3 tool calls", "since the last checkpoint: 2 reads, 1 edit, 0 commands, 0 failed"},
			[]string{"this one came"}},
		{"a round went past it", 4, map[string]int{"cadence": 3, "delta": 4, "reads": 4, "edits": 0, "failed": 0},
			[]string{"why: keel takes stock every 3 tool calls", "this one came after 4: due at call 3, the round's calls went on to call 4"}, nil},
		{"the last one came late", 6, map[string]int{"cadence": 3, "delta": 2, "reads": 2, "edits": 0, "failed": 0},
			[]string{"this one came after 2: due at call 6, the last one came late, at call 4"}, nil},
		{"asked for with /reflect", 5, map[string]int{"forced": 1, "delta": 5, "reads": 1, "edits": 1, "commands": 2, "failed": 1},
			[]string{"why: you asked for it with /reflect, after 5 tool calls", "1 read, 1 edit, 2 commands, 1 failed"}, nil},
		{"no plan progress", 10, map[string]int{"cadence": 10, "delta": 10, "reads": 10, "edits": 0, "failed": 0, "since_progress": 9},
			[]string{"no plan step done for 9 calls"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := newTestTranscript()
			m.AddCard(agent.Intervention{Seq: 1, Kind: "reflection", AtToolCall: c.at, Action: "inject", Figures: c.figs,
				Why: "checkpoint after 3 tool calls (cadence 3)", Message: "Scheduled checkpoint."})
			got := strings.Join(strings.Fields(screen(m, 200, 20)), " ")
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("card lacks %q:\n%s", w, got)
				}
			}
			for _, n := range append(c.never, "cadence=", "delta=", "(cadence") {
				if strings.Contains(got, n) {
					t.Errorf("card shows %q:\n%s", n, got)
				}
			}
		})
	}
}

// A guard card says why in its reason's words, with no "streak=3
// warn_at=3" line under it; a card whose reason was not kept says its
// figures in words.
func TestGuardCardSaysWhyInWords(t *testing.T) {
	cases := []struct {
		name, kind, why string
		figs            map[string]int
		want            string
	}{
		{"with its reason", "error_streak", "go test failed 3 times in a row with \"FAIL\"", map[string]int{"streak": 3, "warn_at": 3},
			"why: go test failed 3 times in a row"},
		{"reason not kept", "error_streak", "", map[string]int{"streak": 3, "warn_at": 3}, "why: failed 3 times in a row (warn at 3)"},
		{"re-read, reason not kept", "reread", "", map[string]int{"from": 1, "to": 80, "times": 2}, "why: returned the same lines 2 times (lines 1-80)"},
		{"a kind not known here", "newguard", "", map[string]int{"calls_seen": 4}, "why: calls seen 4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := newTestTranscript()
			m.AddCard(agent.Intervention{Seq: 1, Kind: c.kind, AtToolCall: 5, Action: "inject", Why: c.why, Figures: c.figs, Message: "Stop."})
			got := strings.Join(strings.Fields(screen(m, 200, 20)), " ")
			if !strings.Contains(got, c.want) {
				t.Errorf("card lacks %q:\n%s", c.want, got)
			}
			if strings.Contains(got, "=") {
				t.Errorf("card shows figures as name=value:\n%s", got)
			}
		})
	}
}
