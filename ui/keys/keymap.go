// Package keys is keel's one KeyMap: every key the TUI answers to, as a
// bubbles key.Binding grouped by where it works (the main screen, the
// editor, the completion list, the dialogs, the datalog browser, the help,
// the welcome screen). KeyMap implements help.KeyMap, `?` lists every
// binding, and bindings are made only in this package (ui's keymap_test.go
// checks both).
package keys

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
)

// KeyMap is every key keel answers to, grouped by where it works. It
// implements help.KeyMap, and `?` lists every binding of every group
// (ui's keymap_test.go checks both that and that no handler compares a
// key outside it): the main screen, the editor, the dialogs, the datalog
// browser, the help itself and the welcome screen.
type KeyMap struct {
	Send        key.Binding
	HistoryPrev key.Binding
	HistoryNext key.Binding
	Complete    key.Binding
	Cancel      key.Binding
	Stop        key.Binding // ctrl+c while a task or a !command runs, before ClearInput and Quit
	Quit        key.Binding
	ClearInput  key.Binding // ctrl+c while the input holds text, before Quit
	Help        key.Binding
	Plan        key.Binding
	Log         key.Binding
	Copy        key.Binding
	Expand      key.Binding
	PasteImage  key.Binding
	SelectPrev  key.Binding
	SelectNext  key.Binding
	PageUp      key.Binding
	PageDown    key.Binding
	Home        key.Binding
	End         key.Binding
	Demo        key.Binding // the welcome screen's: run the demo

	Edit       EditKeys
	Completion CompletionKeys
	Dialog     DialogKeys
	Browser    BrowserKeys
	HelpView   HelpKeys
}

var _ help.KeyMap = KeyMap{}

// bind makes a binding: its help label and description, then its keys.
func bind(label, desc string, keys ...string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(label, desc))
}

// Default is keel's key map.
func Default() KeyMap {
	return KeyMap{
		Send:        bind("enter", "send (queued while keel works)", "enter"),
		HistoryPrev: bind("↑", "previous prompt (on the first line)", "up"),
		HistoryNext: bind("↓", "next prompt (on the last line)", "down"),
		Complete:    bind("tab", "complete a /command; @ completes files", "tab"),
		Cancel:      bind("esc", "cancel the running task or !command", "esc"),
		Stop:        bind("ctrl+c", "stop the running task or !command (as esc)", "ctrl+c"),
		Quit:        bind("ctrl+c ×2", "quit (with an empty input)", "ctrl+c"),
		ClearInput:  bind("ctrl+c", "clear the input (↑ brings it back)", "ctrl+c"),
		Help:        bind("?", "key help (empty input)", "?"),
		Plan:        bind("ctrl+p", "show/hide the plan", "ctrl+p"),
		Log:         bind("ctrl+l", "datalog browser", "ctrl+l"),
		Copy:        bind("y", "copy the last answer (empty input)", "y"),
		Expand:      bind("ctrl+o", "expand/collapse the selected item", "ctrl+o"),
		PasteImage:  bind("ctrl+v", "attach the clipboard's image (wl-paste, xclip or pngpaste)", "ctrl+v"),
		SelectPrev:  bind("alt+↑", "select the previous item", "alt+up"),
		SelectNext:  bind("alt+↓", "select the next item", "alt+down"),
		PageUp:      bind("pgup", "scroll up", "pgup"),
		PageDown:    bind("pgdn", "scroll down", "pgdown"),
		Home:        bind("home", "scroll to the start (empty input)", "home"),
		End:         bind("end", "scroll to the end (empty input)", "end"),
		Demo:        bind("d", "run the demo (welcome screen)", "d"),
		Edit:        defaultEditKeys(),
		Completion:  defaultCompletionKeys(),
		Dialog:      defaultDialogKeys(),
		Browser:     defaultBrowserKeys(),
		HelpView:    defaultHelpKeys(),
	}
}

// Section is one titled group of bindings in the help.
type Section struct {
	Title string
	Keys  []key.Binding
}

// Sections is every binding, grouped as `?` shows them.
func (k KeyMap) Sections() []Section {
	return []Section{
		{"Keys", []key.Binding{k.Send, k.HistoryPrev, k.HistoryNext, k.Complete, k.Cancel, k.Stop, k.ClearInput, k.Quit,
			k.PageUp, k.PageDown, k.Home, k.End, k.SelectPrev, k.SelectNext, k.Expand, k.PasteImage,
			k.Plan, k.Log, k.Copy, k.Help}},
		{"Editing", k.Edit.bindings()},
		{"Completion (@file, /command)", k.Completion.bindings()},
		{"Permission question", k.Dialog.perm()},
		{"The whole change (v in a permission question)", k.Dialog.pager()},
		{"Guard question", k.Dialog.guard()},
		{"Plan approval", k.Dialog.plan()},
		{"Typing a reason or guidance", k.Dialog.typing()},
		{"Datalog browser (letters filter the list)", k.Browser.bindings()},
		{"This help", k.HelpView.bindings()},
		{"Welcome screen", []key.Binding{k.Demo}},
	}
}

// ShortHelp is the one-line help.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Send, k.Cancel, k.Plan, k.Log, k.Help, k.Quit}
}

// FullHelp is every binding, one column per section.
func (k KeyMap) FullHelp() [][]key.Binding {
	var cols [][]key.Binding
	for _, s := range k.Sections() {
		cols = append(cols, s.Keys)
	}
	return cols
}
