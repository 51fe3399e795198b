package keys

import "charm.land/bubbles/v2/key"

// EditKeys are the editor's keys: the prompt box and a dialog's reason
// line. Printable keys type themselves.
type EditKeys struct {
	Newline    key.Binding
	Left       key.Binding
	Right      key.Binding
	Up         key.Binding
	Down       key.Binding
	LineStart  key.Binding
	LineEnd    key.Binding
	WordLeft   key.Binding
	WordRight  key.Binding
	Backspace  key.Binding
	Delete     key.Binding
	DeleteWord key.Binding
	KillBefore key.Binding
	KillAfter  key.Binding
}

func defaultEditKeys() EditKeys {
	return EditKeys{
		Newline:    bind("alt+enter", "new line", "alt+enter", "shift+enter", "ctrl+j"),
		Left:       bind("←/ctrl+b", "back a character", "left", "ctrl+b"),
		Right:      bind("→/ctrl+f", "forward a character", "right", "ctrl+f"),
		Up:         bind("↑", "line up (several lines)", "up"),
		Down:       bind("↓", "line down (several lines)", "down"),
		LineStart:  bind("home/ctrl+a", "start of the line", "home", "ctrl+a"),
		LineEnd:    bind("end/ctrl+e", "end of the line", "end", "ctrl+e"),
		WordLeft:   bind("alt+←/alt+b", "back a word", "alt+left", "ctrl+left", "alt+b"),
		WordRight:  bind("alt+→/alt+f", "forward a word", "alt+right", "ctrl+right", "alt+f"),
		Backspace:  bind("backspace", "delete back", "backspace", "ctrl+h"),
		Delete:     bind("del/ctrl+d", "delete forward", "delete", "ctrl+d"),
		DeleteWord: bind("ctrl+w", "delete the word before", "ctrl+w", "alt+backspace"),
		KillBefore: bind("ctrl+u", "delete to the start of the line", "ctrl+u"),
		KillAfter:  bind("ctrl+k", "delete to the end of the line", "ctrl+k"),
	}
}

func (k EditKeys) bindings() []key.Binding {
	return []key.Binding{k.Newline, k.Left, k.Right, k.Up, k.Down, k.LineStart, k.LineEnd,
		k.WordLeft, k.WordRight, k.Backspace, k.Delete, k.DeleteWord, k.KillBefore, k.KillAfter}
}

// DialogKeys answer the agent's questions: a permission request, a guard's
// question, a plan to approve, and the line typed for a reason.
type DialogKeys struct {
	Allow        key.Binding
	AllowSession key.Binding
	AllowAlways  key.Binding // a question that offers it (fetch's domain): saved in the user's config
	Deny         key.Binding
	DenyNow      key.Binding
	Continue     key.Binding
	Stop         key.Binding
	Guide        key.Binding
	Approve      key.Binding
	Revise       key.Binding
	CancelTask   key.Binding
	Submit       key.Binding
	Back         key.Binding
	ViewDiff     key.Binding // the whole change, in a pager
	PagerUp      key.Binding
	PagerDown    key.Binding
	PagerPgUp    key.Binding
	PagerPgDown  key.Binding
	PagerBack    key.Binding
}

// The dialogs draw their hints from these labels and descriptions.
func defaultDialogKeys() DialogKeys {
	return DialogKeys{
		Allow:        bind("a", "allow once", "a", "y"),
		AllowSession: bind("s", "allow for this session", "s"),
		AllowAlways:  bind("A", "allow always (saved in your config)", "A"),
		Deny:         bind("d", "deny (with a reason)", "d", "n"),
		DenyNow:      bind("esc", "deny", "esc"),
		Continue:     bind("c", "continue", "c", "enter"),
		Stop:         bind("s", "stop", "s", "esc"),
		Guide:        bind("g", "continue with guidance", "g"),
		Approve:      bind("a", "approve", "a", "y", "enter"),
		Revise:       bind("e", "ask for changes", "e"),
		CancelTask:   bind("c", "cancel the task", "c", "esc"),
		Submit:       bind("enter", "send what you typed", "enter"),
		Back:         bind("esc", "back to the question", "esc"),
		ViewDiff:     bind("v", "view the whole change", "v"),
		PagerUp:      bind("↑/k", "scroll up", "up", "k"),
		PagerDown:    bind("↓/j", "scroll down", "down", "j"),
		PagerPgUp:    bind("pgup", "page up", "pgup", "b"),
		PagerPgDown:  bind("pgdn/space", "page down", "pgdown", "space", " "),
		PagerBack:    bind("esc/v/q", "back to the question", "esc", "v", "q"),
	}
}

func (k DialogKeys) perm() []key.Binding {
	return []key.Binding{k.Allow, k.AllowSession, k.AllowAlways, k.Deny, k.DenyNow, k.ViewDiff}
}
func (k DialogKeys) pager() []key.Binding {
	return []key.Binding{k.PagerUp, k.PagerDown, k.PagerPgUp, k.PagerPgDown, k.PagerBack}
}
func (k DialogKeys) guard() []key.Binding  { return []key.Binding{k.Continue, k.Stop, k.Guide} }
func (k DialogKeys) plan() []key.Binding   { return []key.Binding{k.Approve, k.Revise, k.CancelTask} }
func (k DialogKeys) typing() []key.Binding { return []key.Binding{k.Submit, k.Back} }

// BrowserKeys move through the datalog browser. In the sessions list,
// printable keys (k, j, r) type the filter instead.
type BrowserKeys struct {
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Top      key.Binding
	Bottom   key.Binding
	Open     key.Binding
	Resume   key.Binding
	Erase    key.Binding
	Back     key.Binding
	Scope    key.Binding // this project's sessions, or every project's
}

func defaultBrowserKeys() BrowserKeys {
	return BrowserKeys{
		Up:       bind("↑/k", "up", "up", "k"),
		Down:     bind("↓/j", "down", "down", "j"),
		PageUp:   bind("pgup", "page up (a round)", "pgup"),
		PageDown: bind("pgdn/space", "page down (a round)", "pgdown", "space"),
		Top:      bind("home", "to the top", "home"),
		Bottom:   bind("end", "to the last round", "end"),
		Open:     bind("enter", "open", "enter"),
		Resume:   bind("ctrl+r/r", "resume the session", "ctrl+r", "r"),
		Erase:    bind("backspace", "erase the filter", "backspace"),
		Back:     bind("esc", "back, or close the list", "esc", "backspace"),
		Scope:    bind("tab", "all projects / this one", "tab"),
	}
}

func (k BrowserKeys) bindings() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Open, k.Resume, k.Erase, k.Back, k.Scope}
}

// HelpKeys scroll the help; any other key closes it.
type HelpKeys struct {
	LineUp   key.Binding
	LineDown key.Binding
	PageUp   key.Binding
	PageDown key.Binding
}

func defaultHelpKeys() HelpKeys {
	return HelpKeys{
		LineUp:   bind("↑", "scroll up (any other key closes)", "up"),
		LineDown: bind("↓", "scroll down", "down"),
		PageUp:   bind("pgup", "page up", "pgup"),
		PageDown: bind("pgdn", "page down", "pgdown"),
	}
}

func (k HelpKeys) bindings() []key.Binding {
	return []key.Binding{k.LineUp, k.LineDown, k.PageUp, k.PageDown}
}

// CompletionKeys work while a list of completions shows under the input
// (after an @, or Tab on a /command); other keys edit as usual.
type CompletionKeys struct {
	Prev    key.Binding
	Next    key.Binding
	Accept  key.Binding
	Dismiss key.Binding
}

func defaultCompletionKeys() CompletionKeys {
	return CompletionKeys{
		Prev:    bind("↑", "previous completion", "up"),
		Next:    bind("↓", "next completion", "down"),
		Accept:  bind("tab/enter", "take the completion", "tab", "enter"),
		Dismiss: bind("esc", "close the list", "esc"),
	}
}

func (k CompletionKeys) bindings() []key.Binding {
	return []key.Binding{k.Prev, k.Next, k.Accept, k.Dismiss}
}
