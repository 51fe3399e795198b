package datalog

import "strings"

// DecisionText says who decided a call's permission and how, for keel log
// show and the session browser: "allowed once by the user", "allowed
// for the session by the user: run_command: go test …", "allowed by a
// rule in config: edit_file", "auto-allowed: read-only", "allowed by
// --yolo". permission is the call's "allow" or "deny"; "" when no
// decision was recorded.
func DecisionText(permission, tool, decidedBy string) string {
	if decidedBy == "" {
		return ""
	}
	if permission == "deny" {
		return deniedText(decidedBy)
	}
	if text, ok := byPrefix(decidedBy); ok {
		return text
	}
	switch decidedBy {
	case DecidedByUserOnce:
		return "asked, allowed once by the user"
	case DecidedByUser:
		return "asked, allowed by the user"
	case DecidedByPolicy:
		return "auto-allowed: read-only"
	case DecidedByYolo:
		return "allowed by --yolo"
	case DecidedByHook:
		return "allowed by a PreToolUse hook"
	case DecidedByRule:
		return "allowed by a rule or an earlier answer for the session"
	}
	return permission + " by " + decidedBy
}

// byPrefix is the text of a decision that names its grant or rule.
func byPrefix(decidedBy string) (string, bool) {
	for _, p := range []struct{ prefix, text string }{
		{DecidedByUserSession, "asked, allowed for the session by the user: "},
		{DecidedByUserAlways, "asked, allowed always by the user, saved in config: "},
		{DecidedBySession, "allowed for the session by an earlier answer: "},
		{DecidedByRuleNamed, "allowed always by a rule in config: "},
	} {
		if rest, ok := strings.CutPrefix(decidedBy, p.prefix); ok {
			return p.text + rest, true
		}
	}
	return "", false
}

func deniedText(decidedBy string) string {
	switch decidedBy {
	case DecidedByUser:
		return "denied by the user"
	case DecidedByPolicy:
		return "denied by the policy"
	case DecidedByHook:
		return "denied by a PreToolUse hook"
	}
	return "denied by " + decidedBy
}
