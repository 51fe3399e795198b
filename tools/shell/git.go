package shell

import "strings"

// gitGlobal splits git's global options from the subcommand. dir is -C's
// directory; blocker says why no rule may cover the call (-c sets any
// configuration, including programs git runs; --git-dir and friends read
// another repository's configuration).
func gitGlobal(args []Word) (sub string, rest []Word, dir, blocker string) {
	for i := 0; i < len(args); i++ {
		w := args[i]
		if !w.Known() {
			return "", nil, "", "git gets an argument keel cannot see"
		}
		v := w.Value
		switch {
		case v == "-C":
			if i+1 >= len(args) || !args[i+1].Known() {
				return "", nil, "", "git -C with a directory keel cannot see"
			}
			dir = joinDir(dir, args[i+1].Value)
			i++
		case v == "-c" || strings.HasPrefix(v, "--config-env"):
			return "", nil, "", "git -c sets configuration for this command, which can make git run any program"
		case v == "--git-dir" || v == "--work-tree" || v == "--exec-path" || v == "--namespace" || v == "--super-prefix",
			strings.HasPrefix(v, "--git-dir=") || strings.HasPrefix(v, "--work-tree=") || strings.HasPrefix(v, "--exec-path=") ||
				strings.HasPrefix(v, "--namespace=") || strings.HasPrefix(v, "--super-prefix="):
			return "", nil, "", "git " + strings.SplitN(v, "=", 2)[0] + " points git at another repository or program"
		case v == "--no-pager" || v == "-P" || v == "--bare" || v == "--no-replace-objects" || v == "--literal-pathspecs" ||
			v == "--glob-pathspecs" || v == "--noglob-pathspecs" || v == "--icase-pathspecs" || v == "--no-optional-locks" ||
			v == "--no-lazy-fetch" || v == "--no-advice":
		case strings.HasPrefix(v, "-"):
			return "", nil, "", "git " + v + " is a global option keel does not know"
		default:
			return v, args[i+1:], dir, ""
		}
	}
	return "", nil, dir, ""
}

// classifyGit: rules match git without its global options (git -C x push
// is git push); read-only subcommands run without a rule.
func classifyGit(c *Call, args []Word, e *Effect) {
	sub, rest, dir, blocker := gitGlobal(args)
	e.Blocker, e.GitDir = blocker, dir
	if blocker != "" {
		return
	}
	if dir != "" {
		e.Reads = append(e.Reads, Word{Value: dir}) // another repository is read like any other directory
	}
	e.Canonical = []string{"git"}
	if sub != "" {
		e.Canonical = append(e.Canonical, sub)
	}
	for _, w := range rest {
		e.Canonical = append(e.Canonical, w.Value)
	}
	if sub == "" {
		e.ReadOnly = len(args) == 1 && (args[0].Value == "--version" || args[0].Value == "--help")
		return
	}
	p := gitSubOpts(sub).parse(rest)
	if p.unsure {
		e.Blocker = "git gets an argument keel cannot see, which may be an option that writes or runs programs"
		return
	}
	if p.has(gitExecOptions...) {
		e.Blocker = "an option makes git run another program"
		return
	}
	e.FlagWrites = append(e.FlagWrites, p.value("--output", "-o")...)
	e.Reads = append(e.Reads, p.value(gitReadOptions(sub)...)...)
	e.Reads = append(e.Reads, gitPathOperands(p.operands)...)
	if len(e.FlagWrites) == 0 && gitReadOnly(sub, rest, p) {
		e.ReadOnly = true
	}
}

// gitOpts are the options of git's read commands that take a value as
// the next word. -M, -C, -B and -U take theirs only attached (-M50%,
// -U5): listed here, they hid the option after them (--output=FILE).
// --abbrev, --relative, --pretty, --contains, --merged and their kind take
// a value only attached (=): listed, they hid the path after them.
var gitOpts = opts{short: "nSGL", long: []string{"output", "max-count", "skip", "since", "until",
	"after", "before", "author", "committer", "grep", "src-prefix", "dst-prefix", "diff-filter", "contents",
	"sort", "points-at", "date", "decorate-refs",
	"pathspec-from-file", "ignore-revs-file", "ignore-rev", "exclude-from", "file", "blob", "type", "default", "orderfile"}}

// gitPathOperands are the operands that name a path outside the
// repository's own pathspec syntax: absolute, ~ or .. ones. git diff and
// friends read such a file (a path outside the repository implies
// --no-index), so it is a read checked against the workspace like any.
func gitPathOperands(ops []Word) []Word {
	var out []Word
	for _, w := range ops {
		v := w.Value
		if strings.HasPrefix(v, "/") || v == "~" || strings.HasPrefix(v, "~/") || v == ".." || strings.HasPrefix(v, "../") {
			out = append(out, w)
		}
	}
	return out
}

// gitSubOpts are gitOpts with the short options particular to sub.
func gitSubOpts(sub string) opts {
	o := gitOpts
	switch sub {
	case "config":
		o.short += "f"
	case "grep":
		o.short += "efABCm"
	case "ls-files":
		o.short += "xX"
	}
	return o
}

// gitReadOptions are the options whose value is a file git reads: the
// path is checked against the workspace like any read.
func gitReadOptions(sub string) []string {
	out := []string{"--pathspec-from-file", "--orderfile"}
	switch sub {
	case "config":
		out = append(out, "-f", "--file")
	case "grep":
		out = append(out, "-f", "--file")
	case "blame", "annotate":
		out = append(out, "--contents", "--ignore-revs-file", "-S")
	case "ls-files":
		out = append(out, "-X", "--exclude-from")
	}
	return out
}

// gitExecOptions make a read command run a program: an external diff, a
// textconv or filter driver, a pager, gpg, or a remote helper.
var gitExecOptions = []string{"--ext-diff", "--textconv", "--filters", "--open-files-in-pager", "-O", "--show-signature",
	"--upload-pack", "--exec", "--receive-pack", "--no-index", "--remote"}

// gitReadOnly lists the subcommands that only read the repository, with
// the forms of the mixed ones (branch, tag, stash, remote, config,
// reflog, worktree) that only list.
func gitReadOnly(sub string, rest []Word, p parsed) bool {
	switch sub {
	case "status", "log", "show", "diff", "rev-parse", "ls-files", "ls-tree", "blame", "annotate", "grep", "describe",
		"shortlog", "cat-file", "merge-base", "rev-list", "for-each-ref", "count-objects", "whatchanged", "name-rev",
		"show-ref", "var", "version", "help", "check-ignore", "check-attr", "diff-tree", "diff-files", "diff-index", "show-branch":
		return true
	case "branch":
		return len(p.operands) == 0 && !p.has("-d", "-D", "--delete", "-m", "-M", "--move", "-c", "-C", "--copy", "-f", "--force",
			"-u", "--set-upstream-to", "--unset-upstream", "--edit-description", "--track", "--no-track", "--create-reflog") ||
			p.has("--list", "-l", "--show-current", "--contains", "--merged", "--no-merged", "--points-at") && !p.has("-d", "-D", "--delete", "-m", "-M", "-c", "-C", "-f", "--force")
	case "tag":
		return (len(p.operands) == 0 || p.has("-l", "--list")) && !p.has("-d", "--delete", "-a", "-s", "-u", "-f", "--force", "-m", "-F", "-v", "--verify")
	case "stash":
		return len(rest) > 0 && (rest[0].Value == "list" || rest[0].Value == "show")
	case "remote":
		return len(p.operands) == 0 || p.operands[0].Value == "get-url"
	case "reflog":
		return len(rest) == 0 || rest[0].Value == "show"
	case "worktree":
		return len(rest) > 0 && rest[0].Value == "list"
	case "config":
		return p.has("--get", "--get-all", "--get-regexp", "--list", "-l", "--get-urlmatch", "--get-color", "--get-colorbool") &&
			!p.has("--add", "--unset", "--unset-all", "--replace-all", "--rename-section", "--remove-section", "--edit", "-e")
	}
	return false
}
