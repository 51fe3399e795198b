package ui

import (
	"strings"
	"testing"
)

// helpSeen opens `?` and pages through it to the end, returning every
// line the screen showed, with runs of spaces folded.
func helpSeen(t *testing.T, m *Model) string {
	t.Helper()
	send(m, press("?"))
	if !m.help.Open() {
		t.Fatal("? did not open the help")
	}
	seen := map[string]bool{}
	for range 60 { // pgdn must skip no line, even on a small screen
		for _, l := range strings.Split(plain(m), "\n") {
			seen[strings.Join(strings.Fields(l), " ")] = true
		}
		send(m, press("pgdown"))
	}
	return strings.Join(mapKeys(seen), "\n")
}

// TestHelpShowsEveryKeyWithThePanelAndWhenSmall: with the plan panel open
// at 160×48 and on a 60×20 screen, scrolling the help shows every
// binding of the KeyMap (found by walking it) with all of its
// description, and no line is cut.
func TestHelpShowsEveryKeyWithThePanelAndWhenSmall(t *testing.T) {
	for _, tc := range []struct {
		name string
		w, h int
		plan bool
	}{
		{"160x48 plan panel", 160, 48, true},
		{"60x20", 60, 20, false},
		{"60x20 folded plan", 60, 20, true},
		{"40x10", 40, 10, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestModel(t, tc.w, tc.h)
			if tc.plan {
				scenarioPlan(t, m)
			}
			screen := helpSeen(t, m)
			bs := keyBindings(t, m)
			for path, b := range bs {
				h := b.Help()
				words := strings.Fields(h.Desc)
				if !strings.Contains(screen, h.Key+" "+words[0]) {
					t.Errorf("? does not list %s (%q %q)", path, h.Key, h.Desc)
				}
				for _, w := range words {
					if !strings.Contains(screen, w) {
						t.Errorf("%s: the help lost %q of %q", path, w, h.Desc)
					}
				}
			}
		})
	}
}

// TestHelpFitsOneScreenBesideThePlan: at 160×48 the help, drawn over the
// plan panel, needs no scrolling.
func TestHelpFitsOneScreenBesideThePlan(t *testing.T) {
	m := newTestModel(t, 160, 48)
	scenarioPlan(t, m)
	if !m.sidePanel() {
		t.Fatal("the scenario should open the side panel")
	}
	send(m, press("?"))
	if s := plain(m); strings.Contains(s, "lines 1–") || !strings.Contains(s, "press any key to close") {
		t.Fatalf("the help should fit at 160×48:\n%s", s)
	}
	send(m, press("x"))
	if m.help.Open() || !strings.Contains(plain(m), "Plan · attempt 1") {
		t.Fatal("closing the help shows the panel again")
	}
}
