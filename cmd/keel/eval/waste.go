package eval

import (
	"encoding/json"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// Call is one tool call of a run, as the session reported it when it
// finished (agent.ToolFinished), in the order calls finished.
type Call struct {
	Name   string
	Args   string // raw JSON arguments
	Output string // as the model saw it
	Failed bool   // denied, an error result, or a non-zero exit
}

// Waste counts a run's wasted calls: calls that taught the model nothing
// new. Each call counts in at most one category, checked in this order:
//
//   - Failed: the call was denied, returned an error, or ran a command
//     that exited non-zero.
//   - Rereads: a read_file whose every returned line (number and text)
//     an earlier read_file of the same file already returned. Lines that
//     changed since are new, so reading a file again after editing it is
//     not a reread; narrowing to a sub-range of lines already returned is.
//   - Repeats: any other call with the same tool and arguments (JSON
//     compared after decoding) as an earlier call of the run that
//     returned the same output, durations and "(cached)" masked.
type Waste struct {
	Failed  int `json:"failed"`
	Rereads int `json:"rereads"`
	Repeats int `json:"repeats"`
}

// Total is the number of wasted calls.
func (w Waste) Total() int { return w.Failed + w.Rereads + w.Repeats }

// ClassifyWaste counts the wasted calls of one run. root is the project's
// directory, so absolute and relative paths to one file match.
func ClassifyWaste(root string, calls []Call) Waste {
	var w Waste
	seen := map[string]bool{}            // tool + arguments + masked output
	lines := map[string]map[int]string{} // file -> line number -> text returned
	for _, c := range calls {
		key := c.Name + "\x00" + canonicalArgs(c.Args) + "\x00" + maskTimes(c.Output)
		switch {
		case c.Failed:
			w.Failed++
		case c.Name == "read_file" && reread(lines, readPath(root, c.Args), c.Output):
			w.Rereads++
		case seen[key]:
			w.Repeats++
		}
		seen[key] = true
	}
	return w
}

// reread records the lines a read returned and reports whether all of
// them had been returned before with the same text.
func reread(lines map[string]map[int]string, file, output string) bool {
	got := numberedLines(output)
	known, readBefore := lines[file]
	if !readBefore {
		known = map[int]string{}
		lines[file] = known
	}
	old := readBefore
	for n, text := range got {
		if prev, ok := known[n]; !ok || prev != text {
			old = false
		}
		known[n] = text
	}
	return old
}

// numberedLine is one line of read_file's output: "    12\ttext".
var numberedLine = regexp.MustCompile(`^\s*(\d+)\t(.*)$`)

func numberedLines(output string) map[int]string {
	out := map[int]string{}
	for _, l := range strings.Split(output, "\n") {
		if m := numberedLine.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			out[n] = m[2]
		}
	}
	return out
}

// readPath is the file a read_file call names, relative to root.
func readPath(root, args string) string {
	var p struct {
		Path string `json:"path"`
	}
	_ = json.Unmarshal([]byte(args), &p)
	clean := path.Clean(strings.TrimSpace(p.Path))
	if rel, ok := strings.CutPrefix(clean, strings.TrimSuffix(root, "/")+"/"); ok && root != "" {
		return rel
	}
	return strings.TrimPrefix(clean, "./")
}

// canonicalArgs re-encodes JSON arguments with sorted keys; arguments
// that are not JSON are compared as written.
func canonicalArgs(args string) string {
	var v any
	if json.Unmarshal([]byte(args), &v) != nil {
		return args
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// times matches what differs between two identical runs of a command:
// durations ("0.3s", "12ms") and go test's "(cached)".
var times = regexp.MustCompile(`\b\d+(\.\d+)?(ns|µs|us|ms|s|m)\b|\(cached\)`)

func maskTimes(s string) string { return times.ReplaceAllString(s, "#") }
