package evaltest

import (
	"encoding/json"
	"strings"

	"github.com/keel-dev/keel/cmd/keel/eval"
)

// drift is the stretch a model spends off course: length calls from
// start (counted in the model's calls), each given by step.
type drift struct {
	start, length int
	step          func(i int) eval.Step
	what          string // for the model's note when it heeds keel
}

// end is the call count at which the drift ends: at its length, or at
// the first note keel sent during it (heeded).
func (d drift) end(notes []int) (int, bool) {
	end := d.start + d.length
	for _, p := range notes {
		if p > d.start && p < end {
			return p, true
		}
	}
	return end, false
}

// driftRange is the [min, max] of K per kind.
var driftRange = map[Kind][2]int{
	Rereader: {4, 9},
	Retrier:  {4, 9},
	Wanderer: {12, 20},
}

// driftLessons are the words in a lesson's "failed:" line that name the
// kind's drift, as keel's guards recorded it in an earlier run.
var driftLessons = map[Kind][]string{
	Rereader: {"reread:"},
	Retrier:  {"error_streak:", "repeat:"},
	Wanderer: {"stall:", "repeat:", "halt:"},
}

// learnt reports that a lesson offered with the prompt records this
// kind's drift as what failed before: the model then skips it.
func (m *Model) learnt(c conversation) bool {
	for _, line := range strings.Split(c.lessons, "\n") {
		for _, w := range driftLessons[m.kind] {
			if strings.Contains(line, "failed:") && strings.Contains(line, w) {
				return true
			}
		}
	}
	return false
}

// drift is the model's drift on this conversation's task.
func (m *Model) drift(c conversation) drift {
	r, ok := driftRange[m.kind]
	if !ok || m.learnt(c) {
		return drift{step: func(int) eval.Step { return eval.Step{} }}
	}
	k := r[0] + int(c.seed%uint64(r[1]-r[0]+1))
	t := c.task
	switch m.kind {
	case Rereader:
		at, s := rereadTarget(t)
		return drift{start: at, length: k, step: func(int) eval.Step { return s }, what: "rereading that file"}
	case Retrier:
		s := step("run_command", map[string]any{"command": t.Probe})
		return drift{length: k, step: func(int) eval.Step { return s }, what: "rerunning that failing command"}
	default:
		cycle := wanderCycle(t)
		return drift{length: k, step: func(i int) eval.Step { return cycle[i%len(cycle)] }, what: "exploring"}
	}
}

// rereadTarget is the step after which the rereader rereads, and the read
// it repeats: the last read before the first edit (in a task without
// edits, the last read), else a read of the project's first file before
// anything else.
func rereadTarget(t *eval.Task) (int, eval.Step) {
	at, target := -1, eval.Step{}
	for i, s := range t.Reference.Steps {
		if s.Tool == "edit_file" || s.Tool == "write_file" {
			break
		}
		if s.Tool == "read_file" {
			at, target = i, s
		}
	}
	if at < 0 {
		return 0, step("read_file", map[string]any{"path": t.FileNames()[0]})
	}
	return at + 1, target
}

// grepWords are what the wanderer greps for, one per project file.
var grepWords = []string{"TODO", "func", "error", "import", "main", "test", "return"}

// wanderCycle is the wanderer's round of the project: list the root, read
// and grep once per file, glob everything.
func wanderCycle(t *eval.Task) []eval.Step {
	cycle := []eval.Step{step("list_dir", map[string]any{"path": "."})}
	for i, f := range t.FileNames() {
		cycle = append(cycle,
			step("read_file", map[string]any{"path": f}),
			step("grep", map[string]any{"pattern": grepWords[i%len(grepWords)]}))
	}
	return append(cycle, step("glob", map[string]any{"pattern": "**/*"}))
}

func step(tool string, args map[string]any) eval.Step {
	b, _ := json.Marshal(args)
	return eval.Step{Tool: tool, Args: b}
}
