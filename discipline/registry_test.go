package discipline

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestRegistry checks the table: every guard has a name, a kind and a
// hook, and its settings are registered with their defaults.
func TestRegistry(t *testing.T) {
	def := DefaultValues()
	for _, g := range registered().guards {
		if g.Name == "" || g.Kind == "" || (g.Call == nil && g.Round == nil) {
			t.Errorf("guard %+v lacks a name, a kind or a hook", g)
		}
		for _, s := range g.Settings {
			if s.Doc == "" {
				t.Errorf("setting %s has no doc line", s.Key)
			}
			if got := fmt.Sprint(def.get(s.Key)); got != fmt.Sprint(s.Default()) {
				t.Errorf("default of %s is %s, want %v", s.Key, got, s.Default())
			}
		}
	}
	if len(Settings()) != len(registered().byKey) {
		t.Errorf("Settings lists %d, the index %d", len(Settings()), len(registered().byKey))
	}
}

// get returns a setting's value of any kind, for tests.
func (v Values) get(key string) any {
	switch p := v.Ptr(key).(type) {
	case *int:
		return *p
	case *bool:
		return *p
	case *[]string:
		return *p
	}
	return nil
}

func TestRegistryRefusesDuplicates(t *testing.T) {
	dupKey := []*Guard{
		{Name: "a", Kind: "a", Settings: []*Setting{intSetting("x", 1, "x")}},
		{Name: "b", Kind: "b", Settings: []*Setting{intSetting("x", 1, "x")}},
	}
	dupName := []*Guard{{Name: "a", Kind: "a"}, {Name: "a", Kind: "b"}}
	many := []*Guard{{Name: "a", Kind: "a"}}
	for i := range maxBools + 1 {
		many[0].Settings = append(many[0].Settings, boolSetting(fmt.Sprint("b", i), false, "b"))
	}
	for name, table := range map[string][]*Guard{"key": dupKey, "name": dupName, "too many": many} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: buildRegistry accepted the table", name)
				}
			}()
			buildRegistry(table)
		}()
	}
}

func TestValuesAreValues(t *testing.T) {
	a := DefaultValues()
	b := a
	b.Set("repeat_halt", 9)
	b.Set("verify", false)
	b.Set("verify_patterns", []string{"make check"})
	if a.Int("repeat_halt") != 4 || !a.Bool("verify") || len(a.List("verify_patterns")) < 10 {
		t.Errorf("changing a copy changed the original: %d %v %d", a.Int("repeat_halt"), a.Bool("verify"), len(a.List("verify_patterns")))
	}
	if b.Int("repeat_halt") != 9 || b.Bool("verify") || len(b.List("verify_patterns")) != 1 {
		t.Errorf("Set did not set")
	}
	if a.Ptr("no_such_key") != nil {
		t.Error("Ptr of an unknown key is not nil")
	}
	defer func() {
		if recover() == nil {
			t.Error("Set of an unknown key did not panic")
		}
	}()
	b.Set("no_such_key", 1)
}

// TestDocsNameEverySetting keeps docs/DISCIPLINE.md true: every setting
// a guard declares is named there, with its default for a number or a
// switch ("`repeat_warn` (3)").
func TestDocsNameEverySetting(t *testing.T) {
	data, err := os.ReadFile("../docs/DISCIPLINE.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, s := range Settings() {
		want := "`" + s.Key + "`"
		if s.Kind != SettingList {
			want += fmt.Sprintf(" (%v)", s.Default())
		}
		if !strings.Contains(doc, want) && !strings.Contains(doc, strings.Replace(want, "`", "`discipline.", 1)) {
			t.Errorf("docs/DISCIPLINE.md does not name %s", want)
		}
	}
}
