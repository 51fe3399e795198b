package tools

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// missingDirs are the directories of dir, itself included, that do not
// exist yet inside the workspace, outermost first: those a write of a
// new file in dir creates, so undo can remove them again. Outside the
// workspace (a write the user allowed there) none are recorded.
func missingDirs(ws *Workspace, dir string) []string {
	var out []string
	for ws.Inside(dir) && dir != ws.root {
		_, err := os.Lstat(dir)
		if !errors.Is(err, fs.ErrNotExist) {
			break
		}
		out = append(out, dir)
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	slices.Reverse(out)
	return out
}

// removeDirs removes the directories a change created, innermost first,
// each only when it is empty (a file the user put there keeps it), and
// through a handle on its parent, so a directory swapped for a symlink
// leads nowhere. It reports the ones it removed.
func removeDirs(dirs []string) []string {
	var removed []string
	for i := len(dirs) - 1; i >= 0; i-- {
		if fi, err := os.Lstat(dirs[i]); err != nil || !fi.IsDir() {
			continue
		}
		if removeAt(dirs[i]) == nil {
			removed = append(removed, dirs[i])
		}
	}
	return removed
}
