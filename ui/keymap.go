package ui

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
)

// KeyMap is every key the main screen answers to. It implements
// help.KeyMap, so `?` shows exactly what is bound.
type KeyMap struct {
	Send       key.Binding
	Newline    key.Binding
	History    key.Binding
	Cancel     key.Binding
	Quit       key.Binding
	Help       key.Binding
	Plan       key.Binding
	Log        key.Binding
	Copy       key.Binding
	Expand     key.Binding
	SelectPrev key.Binding
	SelectNext key.Binding
	PageUp     key.Binding
	PageDown   key.Binding
	Home       key.Binding
	End        key.Binding
	Complete   key.Binding
}

var _ help.KeyMap = KeyMap{}

// DefaultKeyMap is keel's key map.
func DefaultKeyMap() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Send:       b("enter", "send (queued while keel works)", "enter"),
		Newline:    b("alt+enter", "new line", "alt+enter", "shift+enter", "ctrl+j"),
		History:    b("↑/↓", "prompt history", "up", "down"),
		Cancel:     b("esc", "cancel the running task", "esc"),
		Quit:       b("ctrl+c ×2", "quit", "ctrl+c"),
		Help:       b("?", "key help (empty input)", "?"),
		Plan:       b("ctrl+p", "show/hide the plan", "ctrl+p"),
		Log:        b("ctrl+l", "datalog browser", "ctrl+l"),
		Copy:       b("y", "copy the last answer (empty input)", "y"),
		Expand:     b("ctrl+o", "expand/collapse the selected item", "ctrl+o"),
		SelectPrev: b("alt+↑", "select the previous item", "alt+up"),
		SelectNext: b("alt+↓", "select the next item", "alt+down"),
		PageUp:     b("pgup", "scroll up", "pgup"),
		PageDown:   b("pgdn", "scroll down", "pgdown"),
		Home:       b("home", "scroll to the start (empty input)", "home"),
		End:        b("end", "scroll to the end (empty input)", "end"),
		Complete:   b("tab", "complete a /command", "tab"),
	}
}

// ShortHelp is the one-line help.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Send, k.Cancel, k.Plan, k.Log, k.Help, k.Quit}
}

// FullHelp is the help `?` shows, in columns.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Send, k.Newline, k.History, k.Complete, k.Cancel, k.Quit},
		{k.PageUp, k.PageDown, k.Home, k.End, k.SelectPrev, k.SelectNext, k.Expand},
		{k.Plan, k.Log, k.Copy, k.Help},
	}
}
