package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
	"github.com/keel-dev/keel/ui/dialog"
)

// allBindings walks a KeyMap (and its groups) and returns every binding
// with the path of its field.
func allBindings(v reflect.Value, path string, out map[string]key.Binding) {
	if b, ok := v.Interface().(key.Binding); ok {
		out[path] = b
		return
	}
	if v.Kind() != reflect.Struct {
		return
	}
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if f.IsExported() {
			allBindings(v.Field(i), path+"."+f.Name, out)
		}
	}
}

// keyBindings is every binding of m's KeyMap by field path; it fails the
// test when the walk finds too few to be the whole map.
func keyBindings(t *testing.T, m *Model) map[string]key.Binding {
	t.Helper()
	bs := map[string]key.Binding{}
	allBindings(reflect.ValueOf(m.keys), "keys.KeyMap", bs)
	if len(bs) < 40 {
		t.Fatalf("found only %d bindings: the walk is broken", len(bs))
	}
	return bs
}

// TestHelpListsEveryBinding opens `?` and scrolls through it: every
// binding of the KeyMap, in every group, is listed with its description.
func TestHelpListsEveryBinding(t *testing.T) {
	for _, sz := range sizes {
		m := newTestModel(t, sz[0], sz[1])
		send(m, press("?"))
		seen := map[string]bool{}
		for range 40 {
			for _, l := range strings.Split(plain(m), "\n") {
				seen[strings.Join(strings.Fields(l), " ")] = true
			}
			send(m, press("pgdown"))
		}
		screen := strings.Join(mapKeys(seen), "\n")
		bs := keyBindings(t, m)
		for path, b := range bs {
			h := b.Help()
			if len(b.Keys()) == 0 || h.Key == "" || h.Desc == "" {
				t.Errorf("%s has no keys or no help", path)
				continue
			}
			if !strings.Contains(screen, h.Key+" "+strings.Join(strings.Fields(h.Desc), " ")) {
				t.Errorf("%v: ? does not list %s (%q %q)", sz, path, h.Key, h.Desc)
			}
		}
	}
}

func mapKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestKeysOnlyThroughTheKeyMap reads the source of ui and its packages:
// no handler compares a key press by its string or code (msg.String(),
// msg.Keystroke(), msg.Code), and bindings are made only in ui/keys. So
// every key the UI answers to is a KeyMap binding, which the help lists
// (above).
func TestKeysOnlyThroughTheKeyMap(t *testing.T) {
	files := uiSources(t)
	if len(files) < 20 {
		t.Fatalf("found only %d source files: the walk is broken", len(files))
	}
	fset := token.NewFileSet()
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		keyVars := keyPressNames(f)
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && keyVars[id.Name] {
				switch sel.Sel.Name {
				case "String", "Keystroke", "Code", "Key":
					t.Errorf("%s: compares a key outside the keys.KeyMap (%s.%s); add a binding to keys.KeyMap and use key.Matches",
						fset.Position(sel.Pos()), id.Name, sel.Sel.Name)
				}
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "key" && filepath.Dir(name) != "keys" &&
				(sel.Sel.Name == "NewBinding" || sel.Sel.Name == "WithKeys") {
				t.Errorf("%s: a binding made outside ui/keys", fset.Position(sel.Pos()))
			}
			return true
		})
	}
}

// uiSources is every Go file of ui and its packages but the tests.
func uiSources(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == "testdata":
			return filepath.SkipDir
		case !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go"):
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// keyPressNames is every name a file declares with the type
// tea.KeyPressMsg: parameters, variables and type-switch bindings.
func keyPressNames(f *ast.File) map[string]bool {
	names := map[string]bool{}
	isKey := func(e ast.Expr) bool {
		s, ok := e.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		x, ok := s.X.(*ast.Ident)
		return ok && x.Name == "tea" && s.Sel.Name == "KeyPressMsg"
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			if isKey(n.Type) {
				for _, id := range n.Names {
					names[id.Name] = true
				}
			}
		case *ast.ValueSpec:
			if n.Type != nil && isKey(n.Type) {
				for _, id := range n.Names {
					names[id.Name] = true
				}
			}
		case *ast.TypeSwitchStmt:
			a, ok := n.Assign.(*ast.AssignStmt)
			if !ok {
				return true
			}
			for _, c := range n.Body.List {
				if cc := c.(*ast.CaseClause); len(cc.List) == 1 && isKey(cc.List[0]) {
					names[a.Lhs[0].(*ast.Ident).Name] = true
				}
			}
		}
		return true
	})
	return names
}

// TestWelcomeHelpShowsTheDemoKey: `?` works on the welcome screen too, and
// lists d.
func TestWelcomeHelpShowsTheDemoKey(t *testing.T) {
	m := New(Options{Bridge: dialog.NewBridge(), Width: 160, Height: 48})
	send(m, press("?"))
	if s := ansi.Strip(m.View().Content); !strings.Contains(s, "run the demo (welcome screen)") {
		t.Fatalf("the welcome screen's help lacks d:\n%s", s)
	}
	send(m, press("x"), press("d"))
	if !m.DemoRequested() {
		t.Fatal("after closing the help, d still starts the demo")
	}
}
