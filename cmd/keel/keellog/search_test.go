package keellog

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llm"
)

// searchFixture writes sessions of two projects whose prompts share words,
// one with a terminal escape in its prompt.
func searchFixture(t *testing.T) (open func(bool) (*datalog.DB, error), here, there string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "keel.db")
	db, err := datalog.Open(path, datalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct{ root, prompt string }{
		{"/src/here", "speed up the flaky importer \x1b[31mnow\x1b[0m"},
		{thereRoot, "the flaky importer again"},
	} {
		sid := startTest(t, db, datalog.Session{ProjectRoot: s.root})
		rec := round(sid, 1, 1)
		rec.Messages = append([]llm.Message{{Role: llm.RoleUser, Content: s.prompt}}, rec.Messages...)
		mustWrite(t, db, rec)
		if s.root == "/src/here" {
			here = sid
		} else {
			there = sid
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return func(ro bool) (*datalog.DB, error) { return datalog.Open(path, datalog.Options{ReadOnly: ro}) }, here, there
}

// thereRoot is long: a PROJECT column shows its end, the project's name.
const thereRoot = "/home/someone/work/clients/acme/importer-service"

func runSearch(t *testing.T, open func(bool) (*datalog.DB, error), args ...string) (string, error) {
	t.Helper()
	cmd := NewSearchCommand(open, func() (string, error) { return "/src/here", nil })
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

func TestLogSearch(t *testing.T) {
	open, here, there := searchFixture(t)
	cases := []struct {
		name       string
		args       []string
		has, hasnt []string
		fails      bool
	}{
		{"this project by default", []string{"flaky", "importer"}, []string{datalog.ShortID(here), "prompt", "speed up the flaky importer"}, []string{datalog.ShortID(there), "**"}, false},
		{"another project", []string{"--project", thereRoot, "flaky"}, []string{datalog.ShortID(there)}, []string{datalog.ShortID(here)}, false},
		{"every project", []string{"--all", "importer"}, []string{datalog.ShortID(here), datalog.ShortID(there), "PROJECT", "…clients/acme/importer-service"}, nil, false},
		{"limit", []string{"--all", "--limit", "1", "importer"}, []string{"MATCH"}, nil, false},
		{"nothing found", []string{"zeppelin"}, []string{"no past session matches", "--all"}, nil, false},
		{"syntax is words", []string{`"flaky`, "AND", "(importer"}, []string{"no past session matches"}, nil, false},
		{"escapes never reach the terminal", []string{"flaky"}, []string{"importer"}, []string{"\x1b"}, false},
		{"no query", nil, nil, nil, true},
		{"all and project", []string{"--all", "--project", "/x", "flaky"}, nil, nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := runSearch(t, open, c.args...)
			if (err != nil) != c.fails {
				t.Fatalf("err = %v, want failure %v; output %s", err, c.fails, out)
			}
			for _, s := range c.has {
				if !strings.Contains(out, s) {
					t.Errorf("output lacks %q:\n%s", s, out)
				}
			}
			for _, s := range c.hasnt {
				if strings.Contains(out, s) {
					t.Errorf("output holds %q:\n%s", s, out)
				}
			}
		})
	}
}

func TestLogSearchJSON(t *testing.T) {
	open, here, _ := searchFixture(t)
	out, err := runSearch(t, open, "--json", "flaky")
	if err != nil {
		t.Fatal(err)
	}
	var hits []datalog.Hit
	if err := json.Unmarshal([]byte(out), &hits); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(hits) != 1 || hits[0].SessionID != here || hits[0].Kind != datalog.RecallPrompt || !strings.Contains(hits[0].Snippet, "\x1b[31m") {
		t.Errorf("hits %+v: want this project's prompt, its text kept whole", hits)
	}
	if out, _ := runSearch(t, open, "--json", "zeppelin"); strings.TrimSpace(out) != "[]" {
		t.Errorf("no match in JSON = %q, want []", out)
	}
}

// A hit loses the marks around matched words but keeps a "**" of its own
// text (issue 32's trial: "glob **/*.go" printed as "glob /*.go").
func TestUnmarked(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"the **flaky** **importer**", "the flaky importer"},
		{"glob **/*.go and **greet**", "glob **/*.go and greet"},
		{"f(**kwargs) calls **f**", "f(**kwargs) calls f"},
		{"a****b**", "a**b"},
		{"**überprüfen** 2**10", "überprüfen 2**10"},
	} {
		if got := unmarked(tt.in); got != tt.want {
			t.Errorf("unmarked(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
