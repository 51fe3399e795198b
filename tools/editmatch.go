package tools

import (
	"fmt"
	"strings"
)

// editPlan is the outcome of matching an edit against a file's content.
// When ok is false, msg tells the model why and nothing may be written.
type editPlan struct {
	ok       bool
	result   string
	count    int  // replacements made
	tolerant bool // matched ignoring whitespace
	from, to int  // tolerant match: first and last line, 1-based
	msg      string
}

// planEdit decides an edit without touching disk: an exact match (once, or
// everywhere with replaceAll); else a whitespace-tolerant match used only
// when it is unique; else a message with candidates.
func planEdit(content, old, new string, replaceAll bool) editPlan {
	switch {
	case old == "":
		return editPlan{msg: "old_string is empty; to create a file or replace all of it use write_file"}
	case old == new:
		return editPlan{msg: "old_string and new_string are identical; there is nothing to change"}
	}
	n := strings.Count(content, old)
	switch {
	case n == 1 || (n > 1 && replaceAll):
		return editPlan{ok: true, result: strings.Replace(content, old, new, -1), count: n}
	case n > 1:
		return editPlan{msg: fmt.Sprintf("old_string occurs %d times (lines %s); include more surrounding lines to make it unique, or set replace_all to change every occurrence", n, occurrenceLines(content, old))}
	}
	p := tolerantEdit(content, old, new)
	if !p.ok && new != "" && strings.Contains(content, new) {
		line := strings.Count(content[:strings.Index(content, new)], "\n") + 1
		p.msg = fmt.Sprintf("old_string is not in the file but new_string already is (at line %d): the edit looks already applied; read the file to check instead of retrying", line)
	}
	return p
}

// occurrenceLines lists the line numbers where old starts (first ten).
func occurrenceLines(content, old string) string {
	var nums []string
	line, from := 1, 0
	for len(nums) < 10 {
		i := strings.Index(content[from:], old)
		if i < 0 {
			break
		}
		line += strings.Count(content[from:from+i], "\n")
		nums = append(nums, fmt.Sprint(line))
		line += strings.Count(old, "\n")
		from += i + len(old)
	}
	return strings.Join(nums, ", ")
}

// normLine is a line as the tolerant match sees it: no indentation, no
// trailing whitespace.
func normLine(l string) string { return strings.TrimSpace(l) }

// tolerantMatches returns the 0-based first lines of every window of
// content lines equal to oldLines after normLine.
func tolerantMatches(lines, oldLines []string) []int {
	var starts []int
	for i := 0; i+len(oldLines) <= len(lines); i++ {
		match := true
		for j, o := range oldLines {
			if normLine(lines[i+j]) != normLine(o) {
				match = false
				break
			}
		}
		if match {
			starts = append(starts, i)
		}
	}
	return starts
}

func tolerantEdit(content, old, new string) editPlan {
	oldLines := splitLines(old)
	lines := strings.SplitAfter(content, "\n") // each keeps its "\n"
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1] // no phantom line after a final newline
	}
	if strings.TrimSpace(old) == "" {
		return editPlan{msg: "old_string (only whitespace) was not found"}
	}
	starts := tolerantMatches(lines, oldLines)
	switch len(starts) {
	case 0:
		return editPlan{msg: "old_string was not found, even ignoring indentation and trailing whitespace. " + closestCandidates(lines, oldLines)}
	case 1:
		return applyTolerant(lines, starts[0], oldLines, new)
	}
	nums := make([]string, 0, len(starts))
	for _, s := range starts[:min(len(starts), 10)] {
		nums = append(nums, fmt.Sprint(s+1))
	}
	return editPlan{msg: fmt.Sprintf("old_string is not in the file exactly, and ignoring whitespace it matches %d places (starting at lines %s); copy the exact text from read_file output, with more surrounding lines", len(starts), strings.Join(nums, ", "))}
}

// applyTolerant replaces whole lines [start, start+len(oldLines)) with
// new, re-indented from the model's indentation to the file's.
func applyTolerant(lines []string, start int, oldLines []string, new string) editPlan {
	end := start + len(oldLines) // exclusive
	last := lines[end-1]
	eol := last[len(strings.TrimRight(last, "\r\n")):] // the region's final line break, kept
	var repl string
	if new != "" {
		repl = reindent(strings.TrimSuffix(new, "\n"), indentMap(oldLines, lines[start:end])) + eol
	}
	result := strings.Join(lines[:start], "") + repl + strings.Join(lines[end:], "")
	return editPlan{ok: true, result: result, count: 1, tolerant: true, from: start + 1, to: end}
}

func firstNonBlank(ls []string) int {
	for i, l := range ls {
		if strings.TrimSpace(l) != "" {
			return i
		}
	}
	return 0
}

func indentOf(l string) string { return l[:len(l)-len(strings.TrimLeft(l, " \t"))] }

// indentMap pairs each indentation the model used in old_string with the
// file's indentation on the matched line.
func indentMap(oldLines, fileLines []string) map[string]string {
	m := map[string]string{}
	for j, o := range oldLines {
		if strings.TrimSpace(o) != "" {
			if _, seen := m[indentOf(o)]; !seen {
				m[indentOf(o)] = indentOf(fileLines[j])
			}
		}
	}
	return m
}

// reindent moves each line of new from the model's indentation to the
// file's, using the longest of the model's indentations it starts with.
func reindent(new string, m map[string]string) string {
	ls := strings.Split(new, "\n")
	for i, l := range ls {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ind, best := indentOf(l), ""
		found := false
		for from := range m {
			if strings.HasPrefix(ind, from) && (!found || len(from) > len(best)) {
				best, found = from, true
			}
		}
		if found {
			ls[i] = m[best] + l[len(best):]
		}
	}
	return strings.Join(ls, "\n")
}
