package dialog

import (
	"path/filepath"
	"strings"
)

// splitReason is what a permission question shows of the policy's
// reason and whether it shows the subject (the path or command) under
// it, so the subject appears once: a reason that only restates it goes;
// one ending with the exact command loses that end (the command shows
// in bold below); one ending with the path, as the policy resolved it,
// replaces the path line.
func splitReason(reason, tool, body string) (string, bool) {
	body = strings.TrimSpace(body)
	switch {
	case reason == "" || restates(reason, tool, body):
		return "", true
	case body != "" && strings.HasSuffix(reason, ": "+body) && strings.ContainsAny(body, " \t"):
		return strings.TrimSuffix(reason, ": "+body), true
	case endsWithSubject(reason, body):
		return reason, false
	}
	return reason, true
}

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
	return samePath(path, body)
}

// endsWithSubject reports a reason that ends by naming the question's
// path ("reads outside the workspace: /etc/hosts", "... keel's own
// configuration or instructions: AGENTS.md") without only restating it:
// the path line under it would repeat it.
func endsWithSubject(reason, body string) bool {
	body = strings.TrimSpace(body)
	i := strings.LastIndex(reason, ": ")
	if body == "" || i < 0 || strings.ContainsAny(body, " \n") {
		return false // a command (with spaces) always shows whole
	}
	return samePath(reason[i+2:], body)
}

// samePath reports that named (as the policy wrote it: cleaned, relative
// to the workspace or absolute) is the path body the model gave.
func samePath(named, body string) bool {
	clean := filepath.Clean(body)
	sep := string(filepath.Separator)
	return named == body || named == clean ||
		strings.HasSuffix(clean, sep+named) || // the model gave an absolute path inside the workspace
		!filepath.IsAbs(clean) && !strings.HasPrefix(clean, "..") && strings.HasSuffix(named, sep+clean) || // a relative one, named absolute
		strings.HasPrefix(clean, "..") && filepath.IsAbs(named) && filepath.Base(named) == filepath.Base(clean) // one above the workspace, resolved
}

// grantText is what "s" covers, with the path the question already shows
// said as "this path" ("read_file: this path and below, outside the
// workspace"), so the path is not on screen a second time.
func grantText(grant, reason, body string, showBody bool) string {
	shown := strings.TrimSpace(body)
	if !showBody {
		shown = reason[strings.LastIndex(reason, ": ")+2:]
	}
	if shown == "" || strings.ContainsAny(shown, " \t\n") {
		return grant // a command: its grant names the part it covers
	}
	for _, end := range []string{" ", ""} {
		if i := strings.Index(grant, ": "+shown+end); i >= 0 && (end != "" || strings.HasSuffix(grant, shown)) {
			return grant[:i+2] + "this path" + grant[i+2+len(shown):]
		}
	}
	return grant
}
