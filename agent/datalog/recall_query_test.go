package datalog

import (
	"strings"
	"testing"
)

var escapeCases = []struct {
	name, text string
	terms      []string
}{
	{"plain words", "flaky writer", []string{`"flaky"`, `"writer"`}},
	{"empty", "", nil},
	{"only spaces", " \t\n ", nil},
	{"only punctuation", `- ( ) : ^ * " '`, nil},
	{"operators are (stop) words", "cache AND NOT evict OR NEAR(x y)", []string{`"cache"`, `"evict"`, `"NEAR(x"`, `"y)"`}},
	{"operators alone are words", "AND or NOT", []string{`"AND"`, `"or"`, `"NOT"`}},
	{"a stray quote", `the "unclosed phrase`, []string{`"unclosed phrase"`}},
	{"a quoted phrase", `"write ahead log" wal`, []string{`"write ahead log"`, `"wal"`}},
	{"quotes inside a word", `say"what"now`, []string{`"say"`, `"what"`, `"now"`}},
	{"a column filter", "text:secret scope:x", []string{`"text:secret"`, `"scope:x"`}},
	{"a prefix search", "confi* loader", []string{`"confi"*`, `"loader"`}},
	{"stars alone", "*** **", nil},
	{"a leading caret and plus", "^start +plus", []string{`"^start"`, `"+plus"`}},
	{"unicode", "café naïve 日本語 Ünïcödé", []string{`"café"`, `"naïve"`, `"日本語"`, `"Ünïcödé"`}},
	{"stop words dropped", "how did we fix the flaky test", []string{`"fix"`, `"flaky"`, `"test"`}},
	{"only stop words kept", "the and of", []string{`"the"`, `"and"`, `"of"`}},
	{"a quoted stop word kept", `"the" cache`, []string{`"the"`, `"cache"`}},
	{"paths and flags", "./agent/datalog -run=TestX", []string{`"./agent/datalog"`, `"-run=TestX"`}},
	{"control characters split words", "x\x00y \x1b[31mred", []string{`"x"`, `"y"`, `"[31mred"`}},
}

func TestSearchTermsCannotBeSyntax(t *testing.T) {
	for _, c := range escapeCases {
		t.Run(c.name, func(t *testing.T) {
			got, _ := searchTerms(c.text)
			if strings.Join(got, " ") != strings.Join(c.terms, " ") {
				t.Errorf("searchTerms(%q) = %q, want %q", c.text, got, c.terms)
			}
		})
	}
}

// TestSearchNeverFailsOnUserText runs every case, and text made to break
// a naive query, through a real datalog: none may return an error.
func TestSearchNeverFailsOnUserText(t *testing.T) {
	db := openTest(t, Options{})
	pastSession(t, db, "/p", `the "cache" AND (evict) NEAR café 日本語`, "goal", "answer")
	texts := []string{`"`, `""`, `"""`, `a"b"c"`, `(`, `)`, `NEAR(`, `a:`, `:a`, `{a b}:c`, `-a`, `a -`,
		`*`, `a**`, `"a*"`, `^`, `a OR`, `AND`, `NOT a`, `a NOT`, strings.Repeat("word ", 500), "\x00", "\u2028"}
	for _, c := range escapeCases {
		texts = append(texts, c.text)
	}
	for _, text := range texts {
		for _, project := range []string{"", "/p"} {
			if _, err := db.Search(t.Context(), SearchQuery{Text: text, Project: project}); err != nil {
				t.Errorf("Search(%q, %q): %v", text, project, err)
			}
		}
	}
	if hits := mustSearch(t, db, SearchQuery{Text: `cache AND evict`}); len(hits) != 1 {
		t.Errorf("words that are operators elsewhere match as words: %v", hits)
	}
}

func FuzzSearchNeverFails(f *testing.F) {
	db := openTest(f, Options{})
	pastSession(f, db, "/p", "seed text with words", "goal", "answer")
	for _, c := range escapeCases {
		f.Add(c.text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if _, err := db.Search(t.Context(), SearchQuery{Text: text, Project: "/p"}); err != nil {
			t.Errorf("Search(%q): %v", text, err)
		}
	})
}

func TestCallSummary(t *testing.T) {
	cases := []struct{ name, tool, args, want string }{
		{"command", "run_command", `{"command":"go test ./...","timeout_seconds":60}`, "run_command go test ./..."},
		{"path", "read_file", `{"path":"a/b.go","offset":10}`, "read_file a/b.go"},
		{"pattern before path", "grep", `{"path":"src","pattern":"TODO"}`, "grep TODO"},
		{"first string of an unknown tool", "mcp__gh__issue", `{"n":3,"repo":"keel","title":"x"}`, "mcp__gh__issue keel"},
		{"no string argument", "tick", `{"n":3}`, "tick"},
		{"broken JSON", "write_file", `{"path":`, "write_file"},
		{"empty", "list_dir", ``, "list_dir"},
		{"newlines folded", "run_command", `{"command":"echo a\n\n  echo b"}`, "run_command echo a echo b"},
		{"long argument cut", "run_command", `{"command":"` + strings.Repeat("x", 300) + `"}`, "run_command " + strings.Repeat("x", 200) + "…"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := callSummary(c.tool, c.args); got != c.want {
				t.Errorf("callSummary = %q, want %q", got, c.want)
			}
		})
	}
}

func TestSnippet(t *testing.T) {
	long := strings.Repeat("filler ", 50) + "the flaky writer stalls " + strings.Repeat("tail ", 50)
	cases := []struct {
		name, text, query, want string
	}{
		{"short text whole", "Fix the flaky\n  test", "flaky", "Fix the **flaky** test"},
		{"stems marked", "tests testing tested", "test", "**tests** **testing** **tested**"},
		{"prefix search", "configure the config", "confi*", "**configure** the **config**"},
		{"no match shows the start", "alpha beta", "zeta", "alpha beta"},
		{"cut around the match", long, "flaky writer", "…filler filler filler filler filler filler filler filler filler filler filler filler filler filler the **flaky** **writer** stalls tail tail tail tail tail tail tail tail tail tail tail tail tail tail…"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, words := searchTerms(c.query)
			if got := snippet(c.text, words); got != c.want {
				t.Errorf("snippet =\n%q\nwant\n%q", got, c.want)
			}
		})
	}
}

func TestRankWindowPrefersMoreAndRarerWords(t *testing.T) {
	docs := []*windowDoc{
		{id: 4, text: "the cache was slow"},
		{id: 3, text: "the cache evicts the wrong entry on resize"},
		{id: 2, text: "unrelated words only"},
		{id: 1, text: "resize the cache"},
	}
	_, words := searchTerms("cache resize")
	rankWindow(docs, words)
	var order []int64
	for _, d := range docs {
		order = append(order, d.id)
	}
	// Both words, the shorter text first; then the cache alone; then none.
	if want := []int64{1, 3, 4, 2}; !equalIDs(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
}

func equalIDs(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
