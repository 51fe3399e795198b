package discipline

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// maxNames bounds the file names an Activity keeps.
const maxNames = 50

// Activity counts what the model did over a stretch of tool calls: the
// facts a checkpoint states.
type Activity struct {
	Calls          int
	Reads          int      // calls that returned file content
	FilesRead      []string // distinct, in first-read order (at most 50)
	Edits          int      // calls that changed files
	FilesChanged   []string // distinct, in first-change order (at most 50)
	Commands       int      // commands run, reads by command excluded
	CommandsFailed int
	Failed         int // calls that failed, any tool
}

// add returns the activity with one more call counted.
func (a Activity) add(c ToolCall) Activity {
	a.Calls++
	if c.IsError {
		a.Failed++
	}
	switch {
	case len(c.Reads) > 0:
		a.Reads++
		for _, r := range c.Reads {
			a.FilesRead = addName(a.FilesRead, r.Path)
		}
	case c.Command != "":
		a.Commands++
		if c.IsError || c.ExitCode != 0 {
			a.CommandsFailed++
		}
	}
	if len(c.Changed) > 0 {
		a.Edits++
		for _, p := range c.Changed {
			a.FilesChanged = addName(a.FilesChanged, p)
		}
	}
	return a
}

func addName(names []string, n string) []string {
	if n == "" || len(names) >= maxNames || slices.Contains(names, n) {
		return names
	}
	return appendCopy(names, n)
}

// facts renders the activity as one sentence without tool names.
func (a Activity) facts() string {
	var parts []string
	if a.Reads > 0 {
		parts = append(parts, fmt.Sprintf("%s of %s (%s)", plural(a.Reads, "read"), plural(len(a.FilesRead), "file"), nameList(a.FilesRead, 5)))
	}
	if a.Edits > 0 {
		parts = append(parts, fmt.Sprintf("%s to %s (%s)", plural(a.Edits, "edit"), plural(len(a.FilesChanged), "file"), nameList(a.FilesChanged, 5)))
	} else {
		parts = append(parts, "no edits")
	}
	if a.Commands > 0 {
		parts = append(parts, fmt.Sprintf("%s (%d failed)", plural(a.Commands, "command"), a.CommandsFailed))
	}
	parts = append(parts, fmt.Sprintf("%d of %s failed", a.Failed, plural(a.Calls, "call")))
	return strings.Join(parts, "; ")
}

// Plural renders a count and its noun with keel's one plural rule: "1
// read", "3 reads", "0 reads" (an s unless the count is 1; the nouns keel
// counts take an s).
func Plural(n int, word string) string { return plural(n, word) }

// plural is Plural, short for this package's many messages.
func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// nameList shortens paths to what tells them apart and lists at most max.
func nameList(paths []string, max int) string {
	short := shortPaths(paths)
	if len(short) <= max {
		return strings.Join(short, ", ")
	}
	return strings.Join(short[:max], ", ") + fmt.Sprintf(" and %d more", len(short)-max)
}

// shortPaths drops the directory all paths share, so two main.go files in
// different directories stay distinct while the prompt stays short.
func shortPaths(paths []string) []string {
	if len(paths) == 0 {
		return nil
	}
	prefix := path.Dir(paths[0])
	for _, p := range paths[1:] {
		for prefix != "/" && prefix != "." && !strings.HasPrefix(p, prefix+"/") {
			prefix = path.Dir(prefix)
		}
	}
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = strings.TrimPrefix(p, prefix+"/")
		if prefix == "/" {
			out[i] = p
		}
	}
	return out
}
