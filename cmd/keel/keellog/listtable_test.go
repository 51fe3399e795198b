package keellog

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/keel-dev/keel/agent/datalog"
)

// sampleSessions are what keel log lists on a user's machine: long
// project paths, unknown and known prices, thousands of tokens.
func sampleSessions() []datalog.Session {
	at := time.Date(2026, 11, 26, 13, 51, 0, 0, time.Local)
	return []datalog.Session{
		{ID: "6b0839440069aa", Started: at, ProjectRoot: "/home/someone/work/clients/acme/importer-service", StopReason: "completed",
			FirstPrompt: "fix the failing test in greet and explain why it failed before",
			Totals:      datalog.Totals{Rounds: 12, ToolCalls: 31, TokensIn: 182000, TokensOut: 9100, Cost: 0.4312}},
		{ID: "f00dfeed1234bb", Started: at.Add(-26 * time.Hour), ProjectRoot: "/src/keel", StopReason: "interrupted",
			FirstPrompt: "add a --json flag", Totals: datalog.Totals{Rounds: 3, ToolCalls: 5, TokensIn: 4100, TokensOut: 300}},
	}
}

// keel log fits a terminal: at 80 columns the prompt is cut with "…",
// not dropped, and the least useful columns go first; at 120 every
// column shows; a pipe gets the whole table (issue 32 leftovers: at 80
// TOKENS to PROMPT were cut off).
func TestSessionTableFitsTheTerminal(t *testing.T) {
	cases := []struct {
		width   int
		want    []string
		dropped []string
	}{
		{80, []string{"ID", "STARTED", "PROJECT", "TOK", "COST", "STOP", "PROMPT", "6b083944 ", "11-26 13:51", "importer-se…", "191k", "$0.43", "n/a",
			"completed", "interrupted", "fix the failing …", "add a --json flag"}, []string{"ROUNDS", "RND", "TOOLS", "CALLS"}},
		{120, []string{"ID", "STARTED", "PROJECT", "ROUNDS", "TOOLS", "TOKENS", "COST", "STOP", "PROMPT", "6b0839440069", "2026-11-26 13:51",
			"importer-se…", "12", "31", "191k", "$0.43", "interrupted", "fix the failing test in greet", "add a --json flag"}, nil},
		{0, []string{"ROUNDS", "TOOLS", "TOKENS", "6b0839440069", "2026-11-26 13:51", "…clients/acme/importer-service", "$0.4312", "price unknown",
			"fix the failing test in greet and explain why it …"}, nil},
	}
	for _, c := range cases {
		got := sessionTable(sampleSessions(), c.width)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("at %d columns the table lacks %q:\n%s", c.width, w, got)
			}
		}
		for _, d := range c.dropped {
			if strings.Contains(got, d) {
				t.Errorf("at %d columns the table keeps %q:\n%s", c.width, d, got)
			}
		}
		for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
			if n := utf8.RuneCountInString(l); c.width > 0 && n > c.width {
				t.Errorf("a line of %d columns at %d: %q", n, c.width, l)
			}
		}
	}
}

// Down to 40 columns the table still lists every session with its id,
// stop and some of its prompt.
func TestSessionTableNarrowest(t *testing.T) {
	got := sessionTable(sampleSessions(), 40)
	for _, w := range []string{"6b083944", "f00dfeed", "completed", "interrupted", "fix the"} {
		if !strings.Contains(got, w) {
			t.Errorf("at 40 columns the table lacks %q:\n%s", w, got)
		}
	}
}

// Token counts stay narrow however large.
func TestTokensNarrow(t *testing.T) {
	for n, want := range map[int]string{0: "0", 9876: "9876", 48_200: "48k", 999_499: "999k", 999_500: "1.0M", 1_234_567: "1.2M", 98_700_000: "98.7M"} {
		if got := tokens(n); got != want {
			t.Errorf("tokens(%d) = %q, want %q", n, got, want)
		}
	}
}
