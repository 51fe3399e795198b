package shell

import "strings"

// destructive fills e.Destructive: commands that throw work away or act
// as another user always ask, whatever the rules say.
func destructive(c *Call, prog string, args []Word, e *Effect) {
	for _, v := range c.Via {
		if v == "sudo" || v == "doas" {
			e.Destructive = "runs as another user (" + v + ")"
			return
		}
	}
	e.Destructive = destructiveReason(c, prog, args)
}

func destructiveReason(c *Call, prog string, args []Word) string {
	switch prog {
	case "sudo", "doas", "su", "pkexec", "run0":
		return "runs as another user (" + prog + ")"
	case "rm":
		p := fileOpts["rm"].parse(args)
		switch {
		case p.has("-r", "-R", "-f", "--recursive", "--force"):
			return "rm -r/-f deletes without asking"
		case p.unsure || c.MoreArgs:
			return "rm gets arguments keel cannot see, which may be -rf"
		}
	case "git":
		sub, rest, _, _ := gitGlobal(args)
		return gitDestructive(sub, rest)
	case "chmod", "chown", "chgrp":
		if p := fileOpts[prog].parse(args); p.has("-R", "--recursive") {
			return prog + " -R changes a whole tree"
		}
	case "dd":
		return "dd writes raw devices or files"
	case "shred", "wipefs", "fdisk", "sfdisk", "parted":
		return prog + " destroys data"
	case "reboot", "shutdown", "halt", "poweroff":
		return prog + " stops the machine"
	case "find":
		for _, w := range args {
			if w.Value == "-delete" {
				return "find -delete deletes files"
			}
		}
	case "crontab":
		if fileOpts["rm"].parse(args).has("-r") {
			return "crontab -r removes the crontab"
		}
	}
	if prog == "mkfs" || strings.HasPrefix(prog, "mkfs.") {
		return "mkfs formats a file system"
	}
	return ""
}

// gitDestructive covers git commands that throw away work or rewrite a
// remote; long options count when abbreviated (--har is --hard).
func gitDestructive(sub string, rest []Word) string {
	p := gitOpts.parse(rest)
	first := ""
	if len(rest) > 0 {
		first = rest[0].Value
	}
	switch sub {
	case "reset":
		if p.has("--hard", "--merge", "--keep") {
			return "git reset --hard discards uncommitted changes"
		}
	case "checkout":
		if p.has("-f", "--force", "--ours", "--theirs", "--patch", "-p") || hasWord(rest, "--", ".") {
			return "git checkout -- discards uncommitted changes"
		}
	case "switch":
		if p.has("-f", "--force", "--discard-changes") {
			return "git switch --discard-changes discards uncommitted changes"
		}
	case "restore":
		if !p.has("--staged", "-S") || p.has("--worktree", "-W") {
			return "git restore discards uncommitted changes"
		}
	case "clean":
		if !p.has("-n", "--dry-run") {
			return "git clean deletes untracked files"
		}
	case "push":
		if p.has("-f", "--force", "--force-with-lease", "--force-if-includes", "--mirror", "-d", "--delete", "--prune") || refspecForce(p.operands) {
			return "git push --force or --delete rewrites the remote"
		}
	case "branch":
		if p.has("-D", "-M", "-C") || p.has("-d", "--delete", "-m", "--move") && p.has("-f", "--force") {
			return "git branch -D deletes an unmerged branch"
		}
	case "stash":
		if first == "drop" || first == "clear" {
			return "git stash " + first + " deletes stashed work"
		}
	case "reflog":
		if first == "expire" || first == "delete" {
			return "git reflog " + first + " deletes history"
		}
	case "update-ref":
		if p.has("-d") {
			return "git update-ref -d deletes a ref"
		}
	case "rm":
		if p.has("-f", "--force") {
			return "git rm -f deletes uncommitted work"
		}
	case "filter-branch", "filter-repo", "prune":
		return "git " + sub + " rewrites or deletes history"
	case "gc":
		if p.has("--prune", "--aggressive") {
			return "git gc --prune deletes unreachable commits"
		}
	case "worktree":
		if first == "remove" && p.has("-f", "--force") {
			return "git worktree remove --force deletes uncommitted work"
		}
	}
	return ""
}

// refspecForce reports a push refspec that forces (+main) or deletes (:main).
func refspecForce(ops []Word) bool {
	for i, w := range ops {
		if i > 0 && (strings.HasPrefix(w.Value, "+") || strings.HasPrefix(w.Value, ":")) {
			return true
		}
	}
	return false
}

func hasWord(ws []Word, vals ...string) bool {
	for _, w := range ws {
		for _, v := range vals {
			if w.Value == v {
				return true
			}
		}
	}
	return false
}
