package agent

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// The workspace check tells discipline whether files changed outside
// keel's own calls, so "nothing changed" means nothing changed: a log a
// build started outside keel is writing, a file another program rewrote.
// Before and after each round that runs a command or reads a background
// job, keel looks at a bounded set of paths (stat only, never content):
//
//   - the workspace's first entries, breadth first from the top, up to
//     lookWalk of them (.git left out): the top level and what is near it;
//   - the paths the round's commands name, and a named directory's entries;
//   - the files the session read or changed (the last lookTouched);
//   - the paths seen changing recently, and the entries of a directory
//     whose listing changed (the last lookHot).
//
// A path whose size, modification time or mode differs, before a round,
// from what keel saw at its last look is a change outside keel, unless
// keel's own calls changed it since (their edits are known already).
// Changes made during a round are the round's own: the next look starts
// from them. What the look cannot see (a file deep in a large tree that
// nothing names) is not a change; docs/DISCIPLINE.md says so.
const (
	lookWalk    = 128  // entries visited breadth first from the top
	lookNamed   = 16   // paths named by a round's commands
	lookDirList = 64   // entries of a named directory
	lookTouched = 32   // files the session read or changed
	lookHot     = 32   // paths seen changing recently
	lookSeenMax = 4096 // paths remembered; past it the memory starts over
)

// stamp is what tells two versions of a path apart without reading it.
type stamp struct {
	size, mtime int64
	mode        fs.FileMode
	absent      bool
}

// worldWatch is the session's memory of the workspace. It is used by the
// task goroutine only.
type worldWatch struct {
	root    string
	seen    map[string]stamp // relative path -> at the last look
	own     map[string]bool  // paths keel's calls changed since the last look
	touched []string         // most recent last
	hot     []string         // most recent last
	jobs    string           // the background jobs at the last look before a round (jobsSignature)
}

func newWorldWatch(root string) *worldWatch {
	return &worldWatch{root: root, seen: map[string]stamp{}, own: map[string]bool{}}
}

// before looks at the workspace before a round's calls run and returns
// the paths that changed outside keel since the last look (sorted).
func (w *worldWatch) before(named []string) []string {
	return w.look(named, true)
}

// after looks again once the calls ran, so the next look compares with
// the world as the round left it.
func (w *worldWatch) after(named []string) { w.look(named, false) }

// look stats the set and records it; report asks for the changes.
func (w *worldWatch) look(named []string, report bool) []string {
	cur := w.gather(named)
	if len(w.seen)+len(cur) > lookSeenMax {
		w.seen = map[string]stamp{}
	}
	var changed []string
	for p, st := range cur {
		old, ok := w.seen[p]
		w.seen[p] = st
		if !ok || old == st {
			continue
		}
		w.hot = recent(w.hot, p, lookHot)
		if st.mode.IsDir() {
			w.watchEntries(p, cur) // a file appeared or went: watch what is there now
		}
		if report && !w.own[p] {
			changed = append(changed, p)
		}
	}
	clear(w.own)
	sort.Strings(changed)
	return changed
}

// gather stats the look's set of paths.
func (w *worldWatch) gather(named []string) map[string]stamp {
	cur := make(map[string]stamp, lookWalk+lookNamed+lookTouched+lookHot)
	w.walk(cur)
	for _, p := range named {
		w.stat(cur, p)
		if st := cur[p]; st.mode.IsDir() {
			w.list(cur, p, lookDirList)
		}
	}
	for _, p := range w.touched {
		w.stat(cur, p)
	}
	for _, p := range w.hot {
		w.stat(cur, p)
	}
	return cur
}

// watchEntries adds a changed directory's entries seen by this look to
// the recently changed paths, so a file created there is followed next.
func (w *worldWatch) watchEntries(dir string, cur map[string]stamp) {
	prefix := dir + string(filepath.Separator)
	n := 0
	for p := range cur {
		if n == lookHot/2 {
			return
		}
		if strings.HasPrefix(p, prefix) && !strings.Contains(p[len(prefix):], string(filepath.Separator)) {
			w.hot = recent(w.hot, p, lookHot)
			n++
		}
	}
}

// walk visits the workspace breadth first, up to lookWalk entries.
func (w *worldWatch) walk(cur map[string]stamp) {
	queue := []string{"."}
	budget := lookWalk
	for len(queue) > 0 && budget > 0 {
		dir := queue[0]
		queue = queue[1:]
		for _, rel := range w.list(cur, dir, budget) {
			budget--
			if cur[rel].mode.IsDir() {
				queue = append(queue, rel)
			}
		}
	}
}

// list stats up to most entries of dir (sorted) and returns their paths.
func (w *worldWatch) list(cur map[string]stamp, dir string, most int) []string {
	entries, err := os.ReadDir(filepath.Join(w.root, dir))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if len(out) == most {
			break
		}
		if e.Name() == ".git" {
			continue
		}
		rel := filepath.Join(dir, e.Name())
		if fi, err := e.Info(); err == nil {
			cur[rel] = stampOf(fi)
			out = append(out, rel)
		}
	}
	return out
}

// stat records one path, absent when it does not exist.
func (w *worldWatch) stat(cur map[string]stamp, rel string) {
	if _, ok := cur[rel]; ok {
		return
	}
	fi, err := os.Lstat(filepath.Join(w.root, rel))
	if err != nil {
		cur[rel] = stamp{absent: true}
		return
	}
	cur[rel] = stampOf(fi)
}

func stampOf(fi fs.FileInfo) stamp {
	return stamp{size: fi.Size(), mtime: fi.ModTime().UnixNano(), mode: fi.Mode()}
}

// touch remembers a file the session read or changed (absolute), and a
// change keel made itself (own), with its directory, whose listing it
// changed.
func (w *worldWatch) touch(abs string, own bool) {
	rel, ok := w.rel(abs)
	if !ok {
		return
	}
	w.touched = recent(w.touched, rel, lookTouched)
	if own {
		w.own[rel] = true
		w.own[filepath.Dir(rel)] = true
	}
}

// rel makes an absolute path relative to the workspace; ok is false for a
// path outside it.
func (w *worldWatch) rel(abs string) (string, bool) {
	rel, err := filepath.Rel(w.root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return rel, true
}

// named returns the workspace paths a command's words name, relative to
// the workspace, at most lookNamed: words that look like paths, resolved
// against the command's directory, that stay inside the workspace.
func (w *worldWatch) named(dir string, command string) []string {
	var out []string
	for _, word := range strings.FieldsFunc(command, isCommandSep) {
		word = strings.Trim(word, `"'`)
		if word == "" || strings.HasPrefix(word, "-") || strings.ContainsAny(word, "$*?`=") {
			continue
		}
		abs := word
		if !filepath.IsAbs(word) {
			abs = filepath.Join(dir, word)
		}
		rel, ok := w.rel(filepath.Clean(abs))
		if !ok || rel == "." || slices.Contains(out, rel) {
			continue
		}
		if _, err := os.Lstat(abs); err != nil && !strings.ContainsAny(word, "/.") {
			continue // a plain word that names nothing (a subcommand, a flag's value)
		}
		out = append(out, rel)
		if len(out) == lookNamed {
			break
		}
	}
	return out
}

// isCommandSep splits a command line into words and operators.
func isCommandSep(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == ';' || r == '|' || r == '&' || r == '<' || r == '>' || r == '(' || r == ')'
}

// recent moves p to the end of list, keeping the last most.
func recent(list []string, p string, most int) []string {
	list = slices.DeleteFunc(list, func(q string) bool { return q == p })
	list = append(list, p)
	if len(list) > most {
		list = list[len(list)-most:]
	}
	return list
}
