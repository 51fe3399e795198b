package eval

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/keel-dev/keel/agent/demo"
)

// bundled holds the suite: suite/<task>/task.json and suite/<task>/project.
//
//go:embed suite
var bundled embed.FS

// storedSuffix is stripped from every embedded project file on extraction.
const storedSuffix = ".txt"

// demoProject names the demo's example project (agent/demo) in task.json.
const demoProject = "demo"

// Task is one task of the suite.
type Task struct {
	Name   string   `json:"-"` // the directory name, e.g. "demo-bug"
	Title  string   `json:"title"`
	Prompt string   `json:"prompt"`
	Allow  []string `json:"allow"` // permission rules for this task's own commands and edits
	// Probe is a command that fails in the untouched project (a check
	// run too early); the scripted "retrier" model repeats it.
	Probe string `json:"probe"`
	Check Check  `json:"check"`
	// Reference is one efficient solution. keel's tests replay it with
	// scripted models; a real model never sees it.
	Reference Reference `json:"reference"`
	Project   string    `json:"project"` // "demo" for agent/demo's project; "" for ./project

	once     sync.Once
	files    map[string][]byte
	filesErr error
}

// Reference is a task's reference solution: tool calls, then an answer.
type Reference struct {
	Steps  []Step `json:"steps"`
	Answer string `json:"answer"`
}

// Step is one tool call of a reference solution.
type Step struct {
	Tool string          `json:"tool"`
	Args json.RawMessage `json:"args"`
}

// Suite returns the bundled tasks, sorted by name.
func Suite() ([]*Task, error) {
	entries, err := fs.ReadDir(bundled, "suite")
	if err != nil {
		return nil, fmt.Errorf("read the bundled suite: %w", err)
	}
	var tasks []*Task
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		t, err := loadTask(e.Name())
		if err != nil {
			return nil, err
		}
		tasks = append(tasks, t)
	}
	sort.Slice(tasks, func(i, j int) bool { return tasks[i].Name < tasks[j].Name })
	return tasks, nil
}

func loadTask(name string) (*Task, error) {
	data, err := bundled.ReadFile(path.Join("suite", name, "task.json"))
	if err != nil {
		return nil, fmt.Errorf("task %s: %w", name, err)
	}
	t := &Task{Name: name}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(t); err != nil {
		return nil, fmt.Errorf("task %s: task.json: %w", name, err)
	}
	if err := t.Check.compile(); err != nil {
		return nil, fmt.Errorf("task %s: %w", name, err)
	}
	return t, nil
}

// Select returns the tasks named in names, in suite order; no names
// selects every task. An unknown name is an error that lists the known ones.
func Select(all []*Task, names []string) ([]*Task, error) {
	if len(names) == 0 {
		return all, nil
	}
	var known []string
	for _, t := range all {
		known = append(known, t.Name)
	}
	for _, n := range names {
		if !slices.Contains(known, n) {
			return nil, fmt.Errorf("unknown task %q: the tasks are %s", n, strings.Join(known, ", "))
		}
	}
	var out []*Task
	for _, t := range all {
		if slices.Contains(names, t.Name) {
			out = append(out, t)
		}
	}
	return out, nil
}

// Files returns the task's project: relative slash paths to contents.
func (t *Task) Files() (map[string][]byte, error) {
	t.once.Do(func() { t.files, t.filesErr = t.readProject() })
	return t.files, t.filesErr
}

// readProject reads the stored project; the demo's comes from agent/demo,
// which only extracts, so it is extracted to a temporary directory.
func (t *Task) readProject() (map[string][]byte, error) {
	if t.Project != demoProject {
		root, err := fs.Sub(bundled, path.Join("suite", t.Name, "project"))
		if err != nil {
			return nil, err
		}
		return readTree(root, storedSuffix)
	}
	tmp, err := os.MkdirTemp("", "keel-eval-demo-")
	if err != nil {
		return nil, fmt.Errorf("task %s: %w", t.Name, err)
	}
	defer os.RemoveAll(tmp)
	if err := demo.Extract(tmp); err != nil {
		return nil, fmt.Errorf("task %s: %w", t.Name, err)
	}
	return readTree(os.DirFS(tmp), "")
}

// readTree reads every file below root, dropping suffix from the names.
func readTree(root fs.FS, suffix string) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == ".git":
			return fs.SkipDir // the repository eval made, not the project
		case d.IsDir():
			return nil
		case !d.Type().IsRegular():
			files[p] = []byte("(not a regular file)") // never followed: a link may point anywhere
			return nil
		}
		data, err := fs.ReadFile(root, p)
		if err != nil {
			return err
		}
		files[strings.TrimSuffix(p, suffix)] = data
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read project: %w", err)
	}
	return files, nil
}

// Extract writes the task's project into dir, creating dir if needed.
func (t *Task) Extract(dir string) error {
	files, err := t.Files()
	if err != nil {
		return err
	}
	for rel, data := range files {
		dst := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fmt.Errorf("task %s: %w", t.Name, err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return fmt.Errorf("task %s: %w", t.Name, err)
		}
	}
	return nil
}

// FileNames returns the project's file names, sorted.
func (t *Task) FileNames() []string {
	files, _ := t.Files()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
