package main

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/keel-dev/keel"

// charmPrefixes are the UI libraries only package ui (and main) may use.
var charmPrefixes = []string{"charm.land/", "github.com/charmbracelet/"}

// importRules lists, per package pattern, the import prefixes it must never
// reach (directly or transitively). It is the table form of the rules in
// docs/ARCHITECTURE.md.
// cobra is the CLI library: only cmd/keel and its subpackages use it.
const cobraPkg = "github.com/spf13/cobra"

// uiChildForbidden is what no package below ui may import.
var uiChildForbidden = []string{module + "/cmd", module + "/config", cobraPkg}

// uiChildren are ui's children by concern, each owning its state: none
// imports the root model or another child (they share ui/theme, ui/keys,
// ui/common, ui/markdown, ui/attach and ui/textedit).
var uiChildren = []string{"transcript", "editor", "dialog", "planpanel", "statusbar", "helpview", "browser",
	"welcome", "shellcmd", "customcmd"}

// uiShared are the packages ui's children share; they import no child.
var uiShared = []string{"common", "attach", "textedit"}

// uiChildRules are the rules of the children and of what they share:
// uiChildForbidden, the root model, and every child but the package itself.
func uiChildRules() []importRule {
	var rules []importRule
	for _, p := range append(append([]string(nil), uiChildren...), uiShared...) {
		r := importRule{pkg: module + "/ui/" + p, forbidden: uiChildForbidden, exact: []string{module + "/ui"}}
		for _, c := range uiChildren {
			if c != p {
				r.forbidden = append(r.forbidden, module+"/ui/"+c)
			}
		}
		rules = append(rules, r)
	}
	return rules
}

// importRule is one package's forbidden imports.
type importRule struct {
	pkg       string
	forbidden []string // these packages and everything below them
	exact     []string // these packages only (a parent whose children are fine)
	onlyStd   bool
}

var importRules = append([]importRule{
	{pkg: module + "/discipline", onlyStd: true},
	{pkg: module + "/internal/termtext", onlyStd: true},
	{pkg: module + "/tools/sandbox", forbidden: append([]string{module + "/agent", module + "/ui", module + "/config", module + "/tools/shell", module + "/discipline", module + "/internal/termtext"}, charmPrefixes...), exact: []string{module + "/tools"}},
	{pkg: module + "/tools/shell", forbidden: append([]string{module + "/agent", module + "/ui", module + "/config", module + "/tools", module + "/discipline"}, charmPrefixes...)},
	{pkg: module + "/tools", forbidden: append([]string{module + "/agent", module + "/ui", module + "/config"}, charmPrefixes...)},
	{pkg: module + "/config", forbidden: append([]string{module + "/agent", module + "/ui", module + "/tools"}, charmPrefixes...)},
	{pkg: module + "/agent", forbidden: append([]string{module + "/ui"}, charmPrefixes...)},
	{pkg: module + "/agent/llm", forbidden: append([]string{module + "/ui"}, charmPrefixes...)},
	{pkg: module + "/cmd/keel/eval", forbidden: append([]string{module + "/ui"}, charmPrefixes...)},
	{pkg: module + "/agent/datalog", forbidden: append([]string{module + "/ui", module + "/tools", module + "/discipline", module + "/internal/termtext", module + "/cmd", cobraPkg}, charmPrefixes...), exact: []string{module + "/agent"}},
	{pkg: module + "/agent/demo", forbidden: append([]string{module + "/ui", module + "/cmd", cobraPkg}, charmPrefixes...)},
	{pkg: module + "/ui", forbidden: []string{module + "/cmd", module + "/config", cobraPkg}},
	// ui's packages: theme, keys and markdown import nothing of keel's; the
	// others' rules are uiChildRules.
	{pkg: module + "/ui/theme", forbidden: []string{module + "/", cobraPkg}},
	{pkg: module + "/ui/keys", forbidden: []string{module + "/", cobraPkg}},
	{pkg: module + "/ui/markdown", forbidden: []string{module + "/", cobraPkg}},
	{pkg: module + "/cmd/keel/headless", forbidden: append([]string{module + "/ui", module + "/agent/llmtest", cobraPkg}, charmPrefixes...)},
	{pkg: module + "/agent/recall", forbidden: append([]string{module + "/ui", module + "/cmd", module + "/config", cobraPkg}, charmPrefixes...), exact: []string{module + "/agent"}},
	{pkg: module + "/tools/mcp", forbidden: append([]string{module + "/agent", module + "/ui", module + "/config", module + "/cmd", cobraPkg}, charmPrefixes...)},
	{pkg: module + "/tools/fetch", forbidden: append([]string{module + "/agent", module + "/ui", module + "/config", module + "/cmd", cobraPkg}, charmPrefixes...)},
	{pkg: module + "/agent/telemetry", forbidden: append([]string{module + "/ui", module + "/cmd", module + "/config", module + "/tools/mcp", cobraPkg}, charmPrefixes...)},
	{pkg: module + "/cmd/keel/acp", forbidden: append([]string{module + "/ui", module + "/config", module + "/agent/llmtest", cobraPkg}, charmPrefixes...)},
	{pkg: module + "/agent/hooks", forbidden: []string{module + "/", cobraPkg}, onlyStd: true},
	{pkg: module + "/agent/agentdef", forbidden: append([]string{module + "/", cobraPkg}, charmPrefixes...)},
	{pkg: module + "/cmd/keel/keellog", forbidden: append([]string{module + "/ui", module + "/agent/llmtest"}, charmPrefixes...)},
}, uiChildRules()...)

func TestImportRules(t *testing.T) {
	all := listAllDeps(t)
	for _, rule := range importRules {
		t.Run(strings.TrimPrefix(rule.pkg, module+"/"), func(t *testing.T) {
			deps, ok := all[rule.pkg]
			if !ok {
				t.Fatalf("%s is not a package of the module", rule.pkg)
			}
			for _, d := range deps {
				if v := violation(rule.pkg, d, rule.forbidden, rule.onlyStd); v != "" {
					t.Errorf("%s must not import %s (%s)", rule.pkg, d, v)
				}
				for _, e := range rule.exact {
					if d == e {
						t.Errorf("%s must not import %s", rule.pkg, d)
					}
				}
			}
		})
	}
}

// TestEveryUIPackageHasARule: a package added below ui gets its line in
// importRules (none may import the root model, cmd/ or config).
func TestEveryUIPackageHasARule(t *testing.T) {
	out, err := exec.Command("go", "list", module+"/ui/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	ruled := map[string]bool{}
	for _, r := range importRules {
		ruled[r.pkg] = true
	}
	for _, pkg := range strings.Fields(string(out)) {
		if !ruled[pkg] {
			t.Errorf("%s has no import rule in importRules", pkg)
		}
	}
}

// violation says why dep breaks the rule, or "" when it does not.
func violation(pkg, dep string, forbidden []string, onlyStd bool) string {
	if dep == pkg {
		return ""
	}
	if onlyStd && !isStd(dep) {
		return "only the standard library is allowed"
	}
	for _, f := range forbidden {
		if within(dep, f) {
			return "forbidden edge"
		}
	}
	return ""
}

// within reports whether dep is the package f or lies below it; an f ending
// in "/" is a bare prefix (a module host such as "charm.land/").
func within(dep, f string) bool {
	if strings.HasSuffix(f, "/") {
		return strings.HasPrefix(dep, f)
	}
	return dep == f || strings.HasPrefix(dep, f+"/")
}

// isStd reports whether an import path belongs to the standard library:
// its first element has no dot.
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// listAllDeps maps each of the module's packages to everything it
// imports, directly or not: one go list for all of them (one per rule
// cost about 15 s of CPU in make test).
func listAllDeps(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Deps}} {{.}}{{end}}", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		deps[fields[0]] = fields[1:]
	}
	return deps
}

func TestViolationDetectsForbiddenEdges(t *testing.T) {
	cases := []struct {
		pkg, dep  string
		forbidden []string
		onlyStd   bool
		want      bool
	}{
		{module + "/agent", "charm.land/lipgloss/v2", charmPrefixes, false, true},
		{module + "/agent", "github.com/charmbracelet/x/ansi", charmPrefixes, false, true},
		{module + "/agent", module + "/ui", []string{module + "/ui"}, false, true},
		{module + "/agent", module + "/uix", []string{module + "/ui"}, false, false},
		{module + "/agent", module + "/agent/llm", []string{module + "/ui"}, false, false},
		{module + "/discipline", "fmt", nil, true, false},
		{module + "/discipline", "golang.org/x/text", nil, true, true},
		{module + "/agent/datalog", module + "/tools", []string{module + "/tools"}, false, true},
		{module + "/ui/theme", module + "/agent", []string{module + "/"}, false, true},
		{module + "/ui/theme", "charm.land/lipgloss/v2", []string{module + "/"}, false, false},
	}
	for _, c := range cases {
		got := violation(c.pkg, c.dep, c.forbidden, c.onlyStd) != ""
		if got != c.want {
			t.Errorf("violation(%s -> %s) = %v, want %v", c.pkg, c.dep, got, c.want)
		}
	}
}

// TestEveryPackageHasADocComment keeps `go doc` useful for every package.
func TestEveryPackageHasADocComment(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}\t{{.Doc}}", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, doc, _ := strings.Cut(line, "\t")
		if strings.TrimSpace(doc) == "" {
			t.Errorf("package %s has no doc comment", path)
		}
	}
}
