package browser

import (
	"path/filepath"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/ui/common"
)

// The browser's scope: this project's sessions by default (tab shows
// every project's), the session running now marked live, and a question
// before resuming a session whose project is another directory (it would
// go on in this one).

// SetScope tells the browser this project's root (its default filter; ""
// lists every project) and the id of the session running now.
func (b *Model) SetScope(here, live string) { b.here, b.live = here, live }

// Project is the project whose sessions to list: "" for every project.
func (b *Model) Project() string {
	if b.all {
		return ""
	}
	return b.here
}

// toggleScope switches between this project's sessions and every
// project's; the root reloads the list (Reload).
func (b *Model) toggleScope() Action {
	if b.here == "" {
		return None
	}
	b.all, b.loading, b.cursor, b.listTop = !b.all, true, 0, 0
	return Reload
}

// selected is the session the cursor (or the open session) is on.
func (b *Model) selected() (datalog.Session, bool) {
	if b.level != levelSessions && b.detail != nil {
		return b.detail.Session, true
	}
	fs := b.filtered()
	if b.cursor < 0 || b.cursor >= len(fs) {
		return datalog.Session{}, false
	}
	return fs[b.cursor], true
}

// askResume is the resume key: the live session is already open; a
// session of another project asks first (confirmKey); else Resume.
func (b *Model) askResume() Action {
	s, ok := b.selected()
	switch {
	case !ok:
		return None
	case s.ID == b.live:
		b.note = "that is the session running now"
		return None
	case b.here != "" && s.ProjectRoot != "" && s.ProjectRoot != b.here:
		b.confirm = s.ProjectRoot
		return None
	}
	return Resume
}

// confirmKey answers the question before resuming another project's
// session: enter resumes it here, any other key goes back.
func (b *Model) confirmKey(msg tea.KeyPressMsg) Action {
	b.confirm = ""
	if key.Matches(msg, b.keys.Open) {
		return Resume
	}
	return None
}

// confirmText is the question asked before resuming another project's
// session in this one.
func (b *Model) confirmText() string {
	return common.OneLine("its project is " + b.confirm + ", not this one (" + b.here + "): its files are there. " +
		"enter resumes it here anyway · any other key goes back")
}

// projectName is a project's last path element, as a list shows it.
func projectName(root string) string {
	if root == "" {
		return "?"
	}
	return common.OneLine(filepath.Base(root))
}

// projectLabels names each project of sessions as the list shows it: its
// last path element, or its last two where another project's ends alike
// (two checkouts of my-app: trial80/my-app, trial120/my-app).
func projectLabels(sessions []datalog.Session) map[string]string {
	roots := map[string]map[string]bool{} // name → the roots of that name
	for _, s := range sessions {
		name := projectName(s.ProjectRoot)
		if roots[name] == nil {
			roots[name] = map[string]bool{}
		}
		roots[name][s.ProjectRoot] = true
	}
	labels := make(map[string]string, len(sessions))
	for _, s := range sessions {
		label := projectName(s.ProjectRoot)
		if len(roots[label]) > 1 {
			label = common.OneLine(filepath.Join(filepath.Base(filepath.Dir(s.ProjectRoot)), filepath.Base(s.ProjectRoot)))
		}
		labels[s.ProjectRoot] = label
	}
	return labels
}
