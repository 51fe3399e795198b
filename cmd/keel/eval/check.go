package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Check decides whether a run solved its task from the project's files
// after the run and the model's final answer. Every condition listed must
// hold; an empty Check is never satisfied (a task must say what solved is).
type Check struct {
	Commands  []CommandCheck `json:"commands"`  // each must exit 0, and match Output when set
	Unchanged []string       `json:"unchanged"` // files that must be byte-identical to the original
	Readonly  bool           `json:"readonly"`  // no file may be added, changed or removed
	Contains  []FileMatch    `json:"contains"`  // some file matching Files matches Match
	Absent    []FileMatch    `json:"absent"`    // no file matching Files matches Match
	JSON      []JSONCheck    `json:"json"`      // a top-level key of a JSON file equals a value
	Answer    []string       `json:"answer"`    // regexps the final answer must match (case-insensitive)

	answer []*regexp.Regexp
}

// CommandCheck is a command run in the project after the run.
type CommandCheck struct {
	Run    string `json:"run"`
	Output string `json:"output"` // a regexp the output must match; "" for any

	output *regexp.Regexp
}

// FileMatch is a regexp looked for in the files a doublestar pattern names.
type FileMatch struct {
	Files string `json:"files"`
	Match string `json:"match"`

	re *regexp.Regexp
}

// JSONCheck compares one top-level key of a JSON file.
type JSONCheck struct {
	File   string          `json:"file"`
	Key    string          `json:"key"`
	Equals json.RawMessage `json:"equals"`
}

// CommandRunner runs command with bash in dir and returns its combined
// output; err is set when it could not run or exited non-zero. cmd/keel
// runs it through the same sandbox as the model's commands.
type CommandRunner func(ctx context.Context, dir, command string) (output string, err error)

// Verdict is a checker's decision.
type Verdict struct {
	Solved   bool
	Failures []string // why not, one short line each
}

// compile parses the regexps once, when the suite loads.
func (c *Check) compile() error {
	var err error
	for i := range c.Commands {
		if c.Commands[i].output, err = regexp.Compile(c.Commands[i].Output); err != nil {
			return fmt.Errorf("check command %q: %w", c.Commands[i].Run, err)
		}
	}
	for _, list := range [][]FileMatch{c.Contains, c.Absent} {
		for i := range list {
			if list[i].re, err = regexp.Compile(list[i].Match); err != nil {
				return fmt.Errorf("check %s: %w", list[i].Files, err)
			}
		}
	}
	for _, a := range c.Answer {
		re, err := regexp.Compile("(?i)" + a)
		if err != nil {
			return fmt.Errorf("check answer: %w", err)
		}
		c.answer = append(c.answer, re)
	}
	return nil
}

// Judge checks the project in dir and the final answer against the task;
// run runs the check's commands (nil: bash in dir, unconfined).
func (t *Task) Judge(ctx context.Context, dir, answer string, run CommandRunner) (Verdict, error) {
	run = commandRunner(run)
	orig, err := t.Files()
	if err != nil {
		return Verdict{}, err
	}
	now, err := readTree(os.DirFS(dir), "")
	if err != nil {
		return Verdict{}, err
	}
	c := &t.Check
	var fails []string
	fails = append(fails, c.fileFailures(orig, now)...)
	fails = append(fails, c.answerFailures(answer)...)
	for _, cc := range c.Commands {
		out, err := run(ctx, dir, cc.Run)
		switch {
		case err != nil:
			fails = append(fails, fmt.Sprintf("%s failed: %v", cc.Run, err))
		case !cc.output.MatchString(out):
			fails = append(fails, fmt.Sprintf("%s printed %q", cc.Run, abbreviate(out, 60)))
		}
	}
	if c.empty() {
		fails = append(fails, "the task's check lists no condition")
	}
	return Verdict{Solved: len(fails) == 0, Failures: fails}, nil
}

func (c *Check) empty() bool {
	return len(c.Commands)+len(c.Unchanged)+len(c.Contains)+len(c.Absent)+len(c.JSON)+len(c.Answer) == 0 && !c.Readonly
}

// fileFailures checks the conditions on files.
func (c *Check) fileFailures(orig, now map[string][]byte) []string {
	var fails []string
	for _, f := range c.Unchanged {
		if !bytes.Equal(orig[f], now[f]) {
			fails = append(fails, f+" was changed")
		}
	}
	if c.Readonly {
		if changed := changedFiles(orig, now); len(changed) > 0 {
			fails = append(fails, "files changed in a read-only task: "+strings.Join(changed, ", "))
		}
	}
	for _, m := range c.Contains {
		if len(matching(now, m)) == 0 {
			fails = append(fails, fmt.Sprintf("no file %s matches %s", m.Files, m.Match))
		}
	}
	for _, m := range c.Absent {
		if hits := matching(now, m); len(hits) > 0 {
			fails = append(fails, fmt.Sprintf("%s still match %s", strings.Join(hits, ", "), m.Match))
		}
	}
	for _, j := range c.JSON {
		if f := j.failure(now); f != "" {
			fails = append(fails, f)
		}
	}
	return fails
}

func (c *Check) answerFailures(answer string) []string {
	var fails []string
	for i, re := range c.answer {
		if !re.MatchString(answer) {
			fails = append(fails, fmt.Sprintf("the answer does not mention %s", c.Answer[i]))
		}
	}
	return fails
}

// changedFiles lists files added, removed or changed, sorted.
func changedFiles(orig, now map[string][]byte) []string {
	var out []string
	for name, data := range now {
		if o, ok := orig[name]; !ok || !bytes.Equal(o, data) {
			out = append(out, name)
		}
	}
	for name := range orig {
		if _, ok := now[name]; !ok {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// matching lists the files named by m.Files whose content matches m.
func matching(files map[string][]byte, m FileMatch) []string {
	var out []string
	for name, data := range files {
		if ok, _ := doublestar.Match(m.Files, name); ok && m.re.Match(data) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// failure is "" when the key holds the expected value.
func (j JSONCheck) failure(files map[string][]byte) string {
	data, ok := files[j.File]
	if !ok {
		return j.File + " is missing"
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return fmt.Sprintf("%s is not a JSON object: %v", j.File, err)
	}
	var want any
	if err := json.Unmarshal(j.Equals, &want); err != nil {
		return fmt.Sprintf("the check of %s.%s is broken: %v", j.File, j.Key, err)
	}
	if got, ok := doc[j.Key]; !ok || !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("%s: %s is %v, want %s", j.File, j.Key, got, j.Equals)
	}
	return ""
}

// abbreviate shortens s to n runes on one line.
func abbreviate(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
