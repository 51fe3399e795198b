package textedit

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/keel-dev/keel/ui/keys"
)

// TestOneLinePaste: a one-line editor (a dialog's reason) takes a paste's
// line ends, whatever the terminal sent, as spaces.
func TestOneLinePaste(t *testing.T) {
	for _, nl := range []string{"\n", "\r\n", "\r"} {
		e := New("", 1, false, keys.Default().Edit)
		e.Update(tea.PasteMsg{Content: "one" + nl + "two"})
		if got := e.Value(); got != "one two" {
			t.Fatalf("%q: a one-line box holds %q, want %q", nl, got, "one two")
		}
	}
}

// TestEditingKeys: the bindings of keys.EditKeys move and delete as
// their help says.
func TestEditingKeys(t *testing.T) {
	k := func(code rune, mod tea.KeyMod) tea.KeyPressMsg { return tea.KeyPressMsg{Code: code, Mod: mod} }
	tests := []struct {
		name string
		keys []tea.KeyPressMsg
		want string
	}{
		{"backspace", []tea.KeyPressMsg{k(tea.KeyBackspace, 0)}, "one two thre"},
		{"delete the word before", []tea.KeyPressMsg{k('w', tea.ModCtrl)}, "one two "},
		{"kill to the start", []tea.KeyPressMsg{k('u', tea.ModCtrl)}, ""},
		{"word left, kill after", []tea.KeyPressMsg{k(tea.KeyLeft, tea.ModAlt), k('k', tea.ModCtrl)}, "one two "},
		{"start, delete forward", []tea.KeyPressMsg{k('a', tea.ModCtrl), k(tea.KeyDelete, 0)}, "ne two three"},
		{"new line", []tea.KeyPressMsg{k(tea.KeyEnter, tea.ModAlt)}, "one two three\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := New("› ", 6, true, keys.Default().Edit)
			e.SetValue("one two three")
			for _, msg := range tt.keys {
				e.Update(msg)
			}
			if got := e.Value(); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}
