package tools

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/keel-dev/keel/tools/shell"
)

// gitConfigAsks: a repository's own .git/config can make git run programs
// (core.fsmonitor on git status, diff drivers on git diff, aliases), and a
// hostile repository brings its own. A git call that would run without
// asking asks instead when the repository's configuration sets any key
// keel does not know to be inert.
func (p *Policy) gitConfigAsks(workdir string, call *shell.Call, e shell.Effect) (Decision, bool) {
	if len(e.Canonical) == 0 || e.Canonical[0] != "git" {
		return Decision{}, false
	}
	for _, d := range call.Dirs {
		dir, err := p.commandDir(workdir, d)
		if err == nil && e.GitDir != "" {
			dir, err = p.commandPath(workdir, d, shell.Word{Value: e.GitDir})
		}
		if err != nil {
			return Decision{Verdict: Ask, Reason: "git runs in a directory keel cannot know before the command runs"}, true
		}
		if key, file := unsafeGitConfig(dir, e.ReadOnly); key != "" {
			return Decision{Verdict: Ask, Reason: fmt.Sprintf("this repository's git configuration (%s) sets %s, which can make git run a program", file, key)}, true
		}
	}
	return Decision{}, false
}

// unsafeGitConfig finds the repository containing dir and returns the
// first key of its configuration that is not known to be inert, and the
// file it is in; "" when every key is inert or there is no repository.
func unsafeGitConfig(dir string, readOnly bool) (key, file string) {
	gitDir := findGitDir(dir)
	if gitDir == "" {
		return "", ""
	}
	files := []string{filepath.Join(gitDir, "config"), filepath.Join(gitDir, "config.worktree")}
	if common, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(common))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		files = append(files, filepath.Join(c, "config"))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if k := firstUnsafeKey(data, readOnly); k != "" {
			return k, f
		}
	}
	return "", ""
}

// findGitDir walks up from dir to the first .git: a directory, or a file
// saying "gitdir: PATH" (worktrees, submodules).
func findGitDir(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		g := filepath.Join(d, ".git")
		if fi, err := os.Stat(g); err == nil {
			if fi.IsDir() {
				return g
			}
			if b, err := os.ReadFile(g); err == nil {
				if rest, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:"); ok {
					gd := strings.TrimSpace(rest)
					if !filepath.IsAbs(gd) {
						gd = filepath.Join(d, gd)
					}
					return gd
				}
			}
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// firstUnsafeKey reads git's configuration format far enough to name its
// keys (section.key, subsection dropped) and returns the first one that is
// not inert. Hooks (core.hooksPath) run only when git writes, so a
// read-only call may ignore them.
func firstUnsafeKey(data []byte, readOnly bool) string {
	section, sub := "", false
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				return "a malformed section " + line
			}
			head := strings.TrimSpace(line[1:end])
			name, subsection, hasSub := strings.Cut(head, " ")
			if !hasSub {
				name, subsection, hasSub = strings.Cut(head, ".") // [section.sub] old syntax
			}
			section, sub = strings.ToLower(name), hasSub && subsection != ""
			if rest := strings.TrimSpace(line[end+1:]); rest != "" && rest[0] != '#' && rest[0] != ';' {
				line = rest // key = value on the section's line
			} else {
				continue
			}
		}
		key := strings.ToLower(strings.TrimSpace(strings.SplitN(line, "=", 2)[0]))
		if !inertGitKey(section, sub, key) && !(readOnly && section == "core" && key == "hookspath") {
			return section + "." + key
		}
	}
	if sc.Err() != nil {
		return "an unreadable configuration"
	}
	return ""
}

// inertGitKey lists the configuration keys that never make git run a
// program: the ones git init, clone and everyday commands write.
func inertGitKey(section string, sub bool, key string) bool {
	if sub {
		switch section {
		case "remote":
			return !strings.Contains(key, "pack") && key != "vcs" && key != "proxy"
		case "branch", "url", "lfs", "http":
			return true
		case "submodule":
			return key != "update"
		}
		return false
	}
	switch section {
	case "core":
		switch key {
		case "fsmonitor", "pager", "editor", "sshcommand", "askpass", "gitproxy", "alternaterefscommand", "hookspath":
			return false
		}
		return true
	case "diff":
		return key != "external" && key != "tool" && key != "guitool"
	case "log":
		return key != "showsignature"
	case "user", "author", "committer", "init", "pull", "push", "fetch", "merge", "rebase", "rerere", "color", "column",
		"status", "commit", "tag", "gc", "extensions", "index", "pack", "receive", "transfer", "advice", "feature",
		"checkout", "blame", "grep", "format", "notes", "versionsort", "worktree", "clone", "fsck", "repack", "maintenance",
		"lfs", "http", "branch", "help", "i18n", "apply", "am", "stash", "submodule", "protocol_v2", "reset", "safe":
		return key != "gpgsign" || section == "commit" || section == "tag"
	}
	return false
}
