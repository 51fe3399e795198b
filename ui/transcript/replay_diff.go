package transcript

import (
	"path/filepath"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"github.com/keel-dev/keel/agent/datalog"
)

// diff is the diff a write or edit showed live, rebuilt from the datalog's
// record of the file it changed: the same unified diff the tools make
// (tools.commitWrite), with the path relative to the project. "" when the
// call changed no file keel kept the contents of (a command's changes, a
// large file's splices, contents over the load cap).
func (b *logReplay) diff(changes []datalog.FileChange, callID string) string {
	for _, fc := range changes {
		if fc.ToolCallID != callID || fc.ByCommand || len(fc.Splices) > 0 {
			continue
		}
		if fc.Before == nil && fc.After == nil && fc.Existed {
			return "" // contents not loaded
		}
		rel := b.rel(fc.Path)
		return udiff.Unified("a/"+rel, "b/"+rel, string(fc.Before), string(fc.After))
	}
	return ""
}

// rel is path relative to the project's root, as the workspace names it
// (tools.Workspace.Rel): outside the root it stays absolute.
func (b *logReplay) rel(path string) string {
	if b.root == "" {
		return path
	}
	r, err := filepath.Rel(b.root, path)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return path
	}
	return r
}
