package editor

import (
	"github.com/keel-dev/keel/ui/keys"
	"github.com/keel-dev/keel/ui/theme"
)

// newTestEditor is an empty prompt box 80 columns wide in the dark
// styles; ws offers files after @ (nil: none).
func newTestEditor(ws Workspace) *Model {
	m := New(theme.New(true, false), keys.Default(), ws)
	m.SetWidth(80)
	return &m
}
