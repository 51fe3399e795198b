// Package browser is the datalog browser (ctrl+l, /log, /resume): the
// sessions list (type to filter), a session's round timeline, and one
// round in full, from which a session can be resumed. It reads the
// datalog only in commands (ListSessions, LoadSession), whose results
// (SessionsMsg, DetailMsg) the root model passes to Loaded; a key it
// cannot act on alone comes back as an Action for the root (close, load,
// resume). Everything it draws from the datalog is sanitised: it is the
// model's and the tools' text.
package browser

import (
	"context"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/ui/keys"
)

// browseLevel is where the datalog browser is.
type browseLevel int

const (
	levelSessions browseLevel = iota // the sessions list, type to filter
	levelRounds                      // one session's round timeline
	levelRound                       // one round in full
)

// Model is the datalog browser: sessions → a session's rounds → a round.
// It reads the datalog only in commands; their results arrive as messages.
type Model struct {
	level    browseLevel
	sessions []datalog.Session
	filter   string
	cursor   int // in the filtered sessions, or in the rounds
	listTop  int
	detail   *datalog.SessionDetail
	roundTop int
	round    []string // the open round's lines, rendered once per width
	roundW   int
	scroll   int
	loading  bool
	err      string
	keys     keys.BrowserKeys

	here, live string // this project's root and the running session's id (scope.go)
	all        bool   // every project's sessions, not only this one's
	confirm    string // the other project of a session to resume, asked about first
	note       string // a one-line answer to the last key ("that is the session running now")
}

// New is a browser waiting for its sessions list (ListSessions).
func New(km keys.BrowserKeys) *Model { return &Model{loading: true, keys: km} }

// SessionsMsg carries the sessions list, loaded in a command.
type SessionsMsg struct {
	Sessions []datalog.Session
	Err      error
}

// DetailMsg carries one session's rounds, loaded in a command.
type DetailMsg struct {
	Detail *datalog.SessionDetail
	Err    error
}

// ListSessions loads the newest sessions of project ("" for every
// project's). db is captured, not read from the model, so the command
// touches no model state.
func ListSessions(db *datalog.DB, project string) tea.Cmd {
	return func() tea.Msg {
		s, err := db.ListSessions(context.Background(), datalog.Filter{Limit: 500, Project: project})
		return SessionsMsg{Sessions: s, Err: err}
	}
}

// LoadSession loads one session's rounds.
func LoadSession(db *datalog.DB, id string) tea.Cmd {
	return func() tea.Msg {
		d, err := db.LoadSession(context.Background(), id)
		return DetailMsg{Detail: d, Err: err}
	}
}

// filtered is the sessions whose id, model, project or first prompt
// contain the filter (case-insensitive).
func (b *Model) filtered() []datalog.Session {
	if b.filter == "" {
		return b.sessions
	}
	f := strings.ToLower(b.filter)
	var out []datalog.Session
	for _, s := range b.sessions {
		hay := strings.ToLower(s.ID + " " + s.Model + " " + s.Provider + " " + s.ProjectRoot + " " + s.FirstPrompt + " " + s.StopReason)
		if strings.Contains(hay, f) {
			out = append(out, s)
		}
	}
	return out
}

// SelectedID is the session the cursor is on ("" when none).
func (b *Model) SelectedID() string {
	if b.level != levelSessions && b.detail != nil {
		return b.detail.Session.ID
	}
	fs := b.filtered()
	if b.cursor < 0 || b.cursor >= len(fs) {
		return ""
	}
	return fs[b.cursor].ID
}

// Action is what a key in the browser asks the root model to do.
type Action int

const (
	None   Action = iota
	Close         // leave the browser
	Load          // load the selected session's rounds (LoadSession)
	Resume        // resume the selected session
	Reload        // list the sessions again, of Project()
)

// Key handles one key (height is the rows a round in full scrolls by); the
// root model carries out the returned action.
func (b *Model) Key(k tea.KeyPressMsg, height int) Action {
	b.note = ""
	if b.confirm != "" {
		return b.confirmKey(k)
	}
	switch b.level {
	case levelSessions:
		return b.sessionsKey(k)
	case levelRounds:
		return b.roundsKey(k)
	}
	return b.roundKey(k, height)
}

// sessionsKey moves in the sessions list; printable keys type the filter
// (so r and k are letters here, and ctrl+r resumes).
func (b *Model) sessionsKey(msg tea.KeyPressMsg) Action {
	k := b.keys
	switch {
	case key.Matches(msg, k.Scope):
		return b.toggleScope()
	case typed(msg):
		b.filter += msg.Text
		b.cursor = 0
	case key.Matches(msg, k.Erase):
		if b.filter != "" {
			b.filter = b.filter[:len(b.filter)-1]
			b.cursor = 0
		}
	case key.Matches(msg, k.Back):
		if b.filter != "" {
			b.filter, b.cursor = "", 0
			return None
		}
		return Close
	case key.Matches(msg, k.Up):
		b.cursor = max(b.cursor-1, 0)
	case key.Matches(msg, k.Down):
		b.cursor = min(b.cursor+1, max(len(b.filtered())-1, 0))
	case key.Matches(msg, k.Open):
		if b.SelectedID() != "" {
			b.loading = true
			return Load
		}
	case key.Matches(msg, k.Resume):
		return b.askResume()
	}
	return None
}

// typed reports a key that types printable text (shift aside).
func typed(msg tea.KeyPressMsg) bool {
	if msg.Text == "" || msg.Mod&^tea.ModShift != 0 {
		return false
	}
	for _, r := range msg.Text {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

func (b *Model) roundsKey(msg tea.KeyPressMsg) Action {
	n := 0
	if b.detail != nil {
		n = len(b.detail.Rounds)
	}
	switch k := b.keys; {
	case key.Matches(msg, k.Back):
		b.level, b.detail = levelSessions, nil
	case key.Matches(msg, k.Up):
		b.cursor = max(b.cursor-1, 0)
	case key.Matches(msg, k.Down):
		b.cursor = min(b.cursor+1, max(n-1, 0))
	case key.Matches(msg, k.Top):
		b.cursor = 0
	case key.Matches(msg, k.Bottom):
		b.cursor = max(n-1, 0)
	case key.Matches(msg, k.Open):
		if n > 0 {
			b.level, b.round, b.scroll = levelRound, nil, 0
		}
	case key.Matches(msg, k.Resume):
		return b.askResume()
	}
	return None
}

func (b *Model) roundKey(msg tea.KeyPressMsg, height int) Action {
	switch k := b.keys; {
	case key.Matches(msg, k.Back):
		b.level = levelRounds
	case key.Matches(msg, k.Up):
		b.scroll = max(b.scroll-1, 0)
	case key.Matches(msg, k.Down):
		b.scroll++
	case key.Matches(msg, k.PageUp):
		b.scroll = max(b.scroll-height, 0)
	case key.Matches(msg, k.PageDown):
		b.scroll += height
	case key.Matches(msg, k.Top):
		b.scroll = 0
	case key.Matches(msg, k.Resume):
		return b.askResume()
	}
	return None
}

// Loaded takes a command's result (a SessionsMsg or a DetailMsg).
func (b *Model) Loaded(msg tea.Msg) {
	b.loading = false
	switch msg := msg.(type) {
	case SessionsMsg:
		b.err = errText(msg.Err)
		b.sessions = msg.Sessions
		b.cursor = 0
	case DetailMsg:
		b.err = errText(msg.Err)
		if msg.Err == nil {
			b.detail, b.level, b.cursor, b.roundTop = msg.Detail, levelRounds, 0, 0
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return "could not read the datalog: " + err.Error() + " — check the path in `keel config`"
}
