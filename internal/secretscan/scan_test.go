package secretscan

import (
	"bufio"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// example is one rule's examples as gitleaks ships them with the rule
// (testdata/gitleaks_examples.jsonl): true positives with the secret
// gitleaks finds in each, and false positives.
type example struct {
	ID      string
	TP      []string
	Secrets []string
	FP      []string
}

func examples(t *testing.T) []example {
	t.Helper()
	f, err := os.Open("testdata/gitleaks_examples.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []example
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e example
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

// Every true positive gitleaks ships for a rule of the table is redacted:
// the secret gitleaks finds in it is gone, and the mark names a rule.
func TestGitleaksTruePositivesAreRedacted(t *testing.T) {
	n := 0
	for _, e := range examples(t) {
		for i, tp := range e.TP {
			got, found := Redact(tp)
			secret := e.Secrets[i]
			if !found || (secret != "" && strings.Contains(got, secret)) {
				t.Errorf("%s: not redacted: %.120q -> %.120q", e.ID, tp, got)
			}
			n++
		}
	}
	if n < 200 {
		t.Errorf("only %d examples", n)
	}
	t.Logf("%d true positives of %d rules redacted", n, len(rules))
}

// gitleaks' false positives (placeholders, wrong lengths) mostly stay as
// they are; a few are caught by a neighbouring rule, which costs nothing.
func TestGitleaksFalsePositives(t *testing.T) {
	total, marked := 0, 0
	for _, e := range examples(t) {
		for _, fp := range e.FP {
			total++
			if _, found := Redact(fp); found {
				marked++
			}
		}
	}
	t.Logf("%d of %d false positives marked", marked, total)
	if marked*5 > total {
		t.Errorf("%d of %d false positives marked", marked, total)
	}
}

// keel's own sources and docs hold no secret: nothing in them is marked
// (a mark in a file's content makes undo refuse it).
func TestOrdinaryTextIsLeftAlone(t *testing.T) {
	root := filepath.Join("..", "..")
	files := 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && (d.Name() == "testdata" || d.Name() == ".git" || d.Name() == "bin") {
			if d != nil && d.IsDir() && p != root {
				return fs.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, ".md") || strings.HasSuffix(p, "_test.go") || strings.HasSuffix(p, "rules_table.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		files++
		if got, found := Redact(string(b)); found {
			i := strings.Index(got, "[REDACTED:")
			t.Errorf("%s: marked %q", p, got[max(0, i-40):min(len(got), i+60)])
		}
		return nil
	})
	if files < 100 {
		t.Fatalf("only %d files read", files)
	}
}

func TestKeywordsAreTwoBytesOrMore(t *testing.T) {
	for i := range rules {
		if len(rules[i].keywords) == 0 {
			t.Errorf("%s has no keyword: it would never run", rules[i].id)
		}
		for _, k := range rules[i].keywords {
			if len(k) < 2 {
				t.Errorf("%s: keyword %q", rules[i].id, k)
			}
		}
		rules[i].regexp() // compiles
	}
}

func TestRedactKeepsTheRest(t *testing.T) {
	in := "token ghp_" + "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5 here\nand AKIA" + "QYLPMN5HHHFPZAM2 too"
	got, found := Redact(in)
	want := "token [REDACTED:github-pat] here\nand [REDACTED:aws-access-token] too"
	if !found || got != want {
		t.Errorf("got %q", got)
	}
	escaped := `{"content":"a\n` + "dop_v1_" + "d37d28d9aa72c8b3a0752498a7fefcc913e57b5e0c1e59de58f51e58f5323c8c" + `\nb"}`
	if got, _ := Redact(escaped); got != `{"content":"a\n[REDACTED:digitalocean-pat]\nb"}` {
		t.Errorf("a token after a JSON escape: %q", got)
	}
	if s, found := Redact("no secret: ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"); found {
		t.Errorf("a placeholder was marked: %q", s)
	}
}
