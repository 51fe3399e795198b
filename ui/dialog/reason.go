package dialog

import (
	"path/filepath"
	"strings"
)

// restates reports a reason that says no more than the question's title
// and body already do ("edit_file changes greet.go" over the path
// greet.go, "runs make" over the command make): shown, it would put the
// path or command on screen twice. A reason that adds anything (a
// protected file, the part of a command not yet allowed, a destructive
// one) is kept.
func restates(reason, tool, body string) bool {
	body = strings.TrimSpace(body)
	if body == "" {
		return false
	}
	if reason == "runs "+body {
		return true
	}
	path, ok := strings.CutPrefix(reason, tool+" changes ")
	if !ok || path == "" {
		return false
	}
	clean := filepath.Clean(body)
	return path == body || path == clean || strings.HasSuffix(clean, string(filepath.Separator)+path)
}
