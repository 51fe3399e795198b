package keellog

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"github.com/keel-dev/keel/agent/datalog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llm"
)

// cmdFixture writes two sessions to a file and returns an opener for
// the commands, whose clock is fixed 2 days after t0.
func cmdFixture(t *testing.T) (open func(bool) (*datalog.DB, error), sid string) {
	path := filepath.Join(t.TempDir(), "keel.db")
	now := func() time.Time { return t0.Add(48 * time.Hour) }
	db, err := datalog.Open(path, datalog.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	sid = writeStatsSession(t, db, "/p")
	// Its own id's time, not the fixed clock's: ids made in one second share
	// their first 8 digits, and the tests' short prefixes must be unique.
	old := t0.Add(-40 * 24 * time.Hour)
	startTest(t, db, datalog.Session{ID: datalog.NewID(old), ProjectRoot: "/old", Started: old, FirstPrompt: "old"})
	rec := round(sid, 9, 3)
	rec.Messages = append([]llm.Message{{Role: llm.RoleUser, Content: "please ```fix``` it"}}, rec.Messages...)
	rec.Interventions = []datalog.Intervention{{Kind: "verify", Message: "you edited b.go"}}
	mustWrite(t, db, rec)
	db.EndSession(context.Background(), sid, "completed", datalog.Totals{})
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return func(ro bool) (*datalog.DB, error) { return datalog.Open(path, datalog.Options{ReadOnly: ro, Now: now}) }, sid
}

func runLog(t *testing.T, open func(bool) (*datalog.DB, error), stdin string, args ...string) (string, error) {
	t.Helper()
	cmd := NewLogCommand(open, strings.NewReader(stdin), nil)
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

func TestLogCommandsJSON(t *testing.T) {
	open, sid := cmdFixture(t)
	tests := []struct {
		args  []string
		into  any
		check func(any) bool
	}{
		{[]string{"--json"}, &[]datalog.Session{}, func(v any) bool { return len(*v.(*[]datalog.Session)) == 2 }},
		{[]string{"--json", "--since", "7d"}, &[]datalog.Session{}, func(v any) bool { l := *v.(*[]datalog.Session); return len(l) == 1 && l[0].ID == sid }},
		{[]string{"--json", "--project", "/old"}, &[]datalog.Session{}, func(v any) bool { return len(*v.(*[]datalog.Session)) == 1 }},
		{[]string{"--json", "--limit", "1", "--offset", "1"}, &[]datalog.Session{}, func(v any) bool { l := *v.(*[]datalog.Session); return len(l) == 1 && l[0].ProjectRoot == "/old" }},
		{[]string{"show", sid[:10], "--json"}, &datalog.SessionDetail{}, func(v any) bool { return len(v.(*datalog.SessionDetail).Rounds) == 9 }},
		{[]string{"show", sid, "--json", "--round", "4"}, &datalog.SessionDetail{}, func(v any) bool {
			d := v.(*datalog.SessionDetail)
			return len(d.Rounds) == 1 && d.Rounds[0].ToolCalls[0].Name == "edit_file"
		}},
		{[]string{"stats", sid[:12], "--json"}, &datalog.Stats{}, func(v any) bool { return len(v.(*datalog.Stats).Tasks) == 3 }},
		{[]string{"stats", "--json", "--project", "/p"}, &datalog.Stats{}, func(v any) bool { return v.(*datalog.Stats).Sessions == 1 }},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, err := runLog(t, open, "", tt.args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if err := json.Unmarshal([]byte(out), tt.into); err != nil {
				t.Fatalf("output does not parse: %v\n%s", err, out)
			}
			if !tt.check(tt.into) {
				t.Errorf("unexpected output:\n%s", out)
			}
		})
	}
}

func TestLogCommandsText(t *testing.T) {
	open, sid := cmdFixture(t)
	tests := []struct {
		args []string
		want []string
	}{
		{nil, []string{"ID", "PROMPT", datalog.ShortID(sid), "/old", "completed", "interrupted"}},
		{[]string{"show", sid[:9]}, []string{"round 4", "tool  edit_file", "ERROR", ">>> INTERVENTION VERIFY", "reply"[:0]}},
		{[]string{"show", sid, "--round", "9"}, []string{"messages added:", "please ```fix``` it"}},
		{[]string{"stats", sid}, []string{"FIRST EDIT", "a.go offset 0 limit 50", "go test ./...", "run_command", "edit_file b.go", "reflection"}},
		{[]string{"export", sid, "--format", "markdown"}, []string{"# keel session " + sid, "## User", "## User\n\nplease", "**→ read_file**", "keel intervention (verify)"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, err := runLog(t, open, "", tt.args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestLogExportJSONL(t *testing.T) {
	open, sid := cmdFixture(t)
	out, err := runLog(t, open, "", "export", sid, "--format", "jsonl")
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	lines := 0
	for sc.Scan() {
		var v map[string]any
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("line %d does not parse: %v", lines+1, err)
		}
		lines++
	}
	if lines != 10 {
		t.Errorf("lines = %d, want the session and 9 rounds", lines)
	}
}

func TestLogErrors(t *testing.T) {
	open, _ := cmdFixture(t)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"show", "ffff"}, "no such session"},
		{[]string{"show", "zz"}, "no such session"},
		{[]string{"--since", "seven days"}, "is not an age"},
		{[]string{"export", "6", "--format", "pdf"}, "use --format jsonl"},
	}
	for _, tt := range tests {
		if _, err := runLog(t, open, "", tt.args...); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: err = %v, want %q", tt.args, err, tt.want)
		}
	}
}

func TestLogPrune(t *testing.T) {
	open, _ := cmdFixture(t)
	count := func() int {
		out, _ := runLog(t, open, "", "--json", "--limit", "0")
		var l []datalog.Session
		json.Unmarshal([]byte(out), &l)
		return len(l)
	}
	steps := []struct {
		stdin string
		args  []string
		want  int
		says  string
	}{
		{"n\n", []string{"prune", "--older-than", "30d"}, 2, "nothing deleted"},
		{"y\n", []string{"prune", "--older-than", "30d"}, 1, "deleted 1 session"},
		{"", []string{"prune", "--older-than", "1h", "--yes"}, 0, "deleted 1 session"},
	}
	for _, s := range steps {
		out, err := runLog(t, open, s.stdin, s.args...)
		if err != nil || !strings.Contains(out, s.says) || count() != s.want {
			t.Errorf("%v with %q: %v %q, %d sessions left; want %q and %d", s.args, s.stdin, err, out, count(), s.says, s.want)
		}
	}
}

func TestParseAge(t *testing.T) {
	tests := map[string]time.Duration{"7d": 7 * 24 * time.Hour, "12h": 12 * time.Hour, "90m": 90 * time.Minute, "1h30m": 90 * time.Minute}
	for in, want := range tests {
		if got, err := ParseAge(in); err != nil || got != want {
			t.Errorf("ParseAge(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "d", "-3d", "week"} {
		if _, err := ParseAge(bad); err == nil {
			t.Errorf("ParseAge(%q) accepted", bad)
		}
	}
}

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 rounds", 1: "1 round", 2: "2 rounds"} {
		if got := count(n, "round"); got != want {
			t.Errorf("count(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestMoney(t *testing.T) {
	cases := []struct {
		usd    float64
		tokens int
		want   string
	}{
		{0.000448, 880, "$0.0004"},
		{0, 880, "price unknown"}, // the datalog stores 0 when the model had no price
		{0, 0, "$0.0000"},         // nothing used, nothing spent
		{1.2345, 10, "$1.2345"},
	}
	for _, c := range cases {
		if got := money(c.usd, c.tokens); got != c.want {
			t.Errorf("money(%v, %d) = %q, want %q", c.usd, c.tokens, got, c.want)
		}
	}
}

// A PROJECT column keeps the end of a long path, the project's name
// (issue 32: it cut the end and hid the name).
func TestAbridgePathKeepsTheProjectName(t *testing.T) {
	cases := []struct{ in, want string }{
		{"/src/keel", "/src/keel"},
		{"/home/someone/work/clients/acme/importer-service", "…ork/clients/acme/importer-service"},
		{"/a/b\x1b[31m/red", "/a/b/red"},
	}
	for _, c := range cases {
		if got := abridgePath(c.in, 34); got != c.want {
			t.Errorf("abridgePath(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// fit cuts lines at the terminal's width, marking the cut; width 0 (not a
// terminal) leaves them whole.
func TestFit(t *testing.T) {
	text := "ID  PROMPT\n6b08  fix the failing test in greet\n"
	if got := fit(text, 0); got != text {
		t.Errorf("fit(0) = %q", got)
	}
	if got, want := fit(text, 16), "ID  PROMPT\n6b08  fix the f…\n"; got != want {
		t.Errorf("fit(16) = %q, want %q", got, want)
	}
}
