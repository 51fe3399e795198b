package tools

import (
	"path/filepath"
	"slices"
	"strings"
)

// wrappers run the command that follows them; argsTaking lists their
// options that consume the next word.
var wrappers = map[string]string{
	"sudo": "-u -g -C -D -h -p -r -t -U", "doas": "-u -C", "env": "-u -C -S",
	"nice": "-n", "nohup": "", "time": "", "command": "", "builtin": "", "exec": "-a",
	"timeout": "-s -k", "xargs": "-I -n -P -d -L -s -a -E", "stdbuf": "-i -o -e",
}

// unwrap strips wrapper programs (sudo, env, timeout, xargs, ...) and their
// options and assignments, returning the words of the command really run.
func unwrap(words []string) []string {
	for range 5 {
		if len(words) == 0 {
			return words
		}
		takes, ok := wrappers[filepath.Base(words[0])]
		if !ok {
			return words
		}
		prog := filepath.Base(words[0])
		words = words[1:]
		for len(words) > 0 && (strings.HasPrefix(words[0], "-") || assignRe.MatchString(words[0])) {
			if slices.Contains(strings.Fields(takes), words[0]) && len(words) > 1 {
				words = words[1:]
			}
			words = words[1:]
		}
		if prog == "timeout" && len(words) > 0 {
			words = words[1:] // the duration
		}
	}
	return words
}

// destructiveReason says why a part is destructive, or "" when it is not.
// Redirections and curl|sh are judged by the caller, which sees the whole
// command and the workspace.
func destructiveReason(p shellPart) string {
	if len(p.words) > 0 {
		switch filepath.Base(p.words[0]) {
		case "sudo", "doas", "su":
			return "runs as another user (" + filepath.Base(p.words[0]) + ")"
		}
	}
	w := unwrap(p.words)
	if len(w) == 0 {
		return ""
	}
	args := w[1:]
	switch prog := filepath.Base(w[0]); prog {
	case "rm":
		if hasShortFlag(args, "rRf") || hasAny(args, "--recursive", "--force") {
			return "rm -r/-f deletes without asking"
		}
	case "git":
		return gitDestructive(args)
	case "chmod", "chown", "chgrp":
		if hasShortFlag(args, "R") || hasAny(args, "--recursive") {
			return prog + " -R changes a whole tree"
		}
	case "dd":
		return "dd writes raw devices or files"
	case "find":
		if hasAny(args, "-delete") {
			return "find -delete deletes files"
		}
	default:
		if prog == "mkfs" || strings.HasPrefix(prog, "mkfs.") {
			return "mkfs formats a file system"
		}
	}
	return ""
}

// gitDestructive covers git commands that throw away work.
func gitDestructive(args []string) string {
	sub, rest := gitSubcommand(args)
	switch sub {
	case "reset":
		if hasAny(rest, "--hard") {
			return "git reset --hard discards uncommitted changes"
		}
	case "checkout":
		if hasAny(rest, "--", ".", "-f", "--force") {
			return "git checkout -- discards uncommitted changes"
		}
	case "restore":
		if !hasAny(rest, "--staged", "-S") || hasAny(rest, "--worktree", "-W") {
			return "git restore discards uncommitted changes"
		}
	case "clean":
		if !hasAny(rest, "-n", "--dry-run") {
			return "git clean deletes untracked files"
		}
	case "push":
		if hasShortFlag(rest, "f") || hasPrefixAny(rest, "--force", "--mirror", "+") {
			return "git push --force rewrites the remote"
		}
	case "branch":
		if hasShortFlag(rest, "D") || (hasAny(rest, "--delete", "-d") && hasAny(rest, "--force", "-f")) {
			return "git branch -D deletes an unmerged branch"
		}
	}
	return ""
}

// gitSubcommand skips git's global options (-C dir, -c k=v, --git-dir=...).
func gitSubcommand(args []string) (string, []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree" || a == "--namespace":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a, args[i+1:]
		}
	}
	return "", nil
}

// hasShortFlag reports a single-dash flag cluster containing any of letters.
func hasShortFlag(args []string, letters string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], letters) {
			return true
		}
	}
	return false
}

func hasAny(args []string, want ...string) bool {
	for _, a := range args {
		if slices.Contains(want, a) {
			return true
		}
	}
	return false
}

func hasPrefixAny(args []string, prefixes ...string) bool {
	for _, a := range args {
		for _, p := range prefixes {
			if strings.HasPrefix(a, p) {
				return true
			}
		}
	}
	return false
}

// pipesToShell reports curl or wget output run by a shell: `curl … | sh`,
// `bash <(curl …)`, `sh -c "$(curl …)"`.
func pipesToShell(parts []shellPart) bool {
	fetch, shell := false, false
	for _, p := range parts {
		w := unwrap(p.words)
		if len(w) == 0 {
			continue
		}
		switch prog := filepath.Base(w[0]); {
		case strings.HasPrefix(w[0], "$(") || strings.HasPrefix(w[0], "`"):
			shell = true // a substitution's output run as a command
		case prog == "curl" || prog == "wget":
			fetch = true
		case shells[prog] || prog == "python" || prog == "python3" || prog == "perl":
			shell = shell || p.piped || len(w) == 1 || strings.Contains(strings.Join(w, " "), "<(")
		}
	}
	return fetch && shell
}
