// Package agentdef reads named subagents: Markdown files whose YAML front
// matter (description, tools, model) describes the agent and whose body is
// its system prompt, the shape of Claude Code's subagent files. keel reads
// them from $XDG_CONFIG_HOME/keel/agents and a project's .keel/agents (the
// project's win on a name). It imports nothing of keel's.
package agentdef

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Def is one named agent.
type Def struct {
	Name        string   // the file's name without .md (or the front matter's name)
	Description string   // when to use it, shown to the model in the task tool's description
	Tools       []string // the tools it may use; nil: the task call's or the default
	Model       string   // "" or "inherit": the parent's model
	Prompt      string   // the body: its system prompt
	Path        string
}

// frontMatter is the YAML header. tools may be a list or a
// comma-separated string ("read_file, grep"), as Claude Code writes it.
type frontMatter struct {
	Name        string    `yaml:"name"`
	Description string    `yaml:"description"`
	Tools       yaml.Node `yaml:"tools"`
	Model       string    `yaml:"model"`
}

// validName is what an agent's name may be.
var validName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

// Parse reads one agent file's content; name is used when the front
// matter has none.
func Parse(name string, data []byte) (Def, error) {
	head, body, ok := split(data)
	if !ok {
		return Def{}, errors.New("it does not start with a --- front matter block (description, tools, model)")
	}
	var fm frontMatter
	if err := yaml.Unmarshal(head, &fm); err != nil {
		return Def{}, fmt.Errorf("its front matter is not YAML: %v", err)
	}
	d := Def{Name: strings.TrimSpace(fm.Name), Description: strings.TrimSpace(fm.Description), Model: strings.TrimSpace(fm.Model),
		Prompt: strings.TrimSpace(string(body))}
	if d.Name == "" {
		d.Name = name
	}
	if d.Model == "inherit" {
		d.Model = ""
	}
	tools, err := toolList(&fm.Tools)
	if err != nil {
		return Def{}, err
	}
	d.Tools = tools
	switch {
	case !validName.MatchString(d.Name):
		return Def{}, fmt.Errorf("the name %q must be lower-case letters, digits, - and _", d.Name)
	case d.Description == "":
		return Def{}, errors.New("its front matter needs a description (when to use the agent)")
	case d.Prompt == "":
		return Def{}, errors.New("its body (the agent's system prompt) is empty")
	}
	return d, nil
}

// split cuts a document into its front matter and body.
func split(data []byte) (head, body []byte, ok bool) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	s := strings.ReplaceAll(string(data), "\r\n", "\n")
	if !strings.HasPrefix(s, "---\n") {
		return nil, nil, false
	}
	rest := s[len("---\n"):]
	end := strings.Index(rest, "\n---")
	if end < 0 {
		return nil, nil, false
	}
	after := rest[end+len("\n---"):]
	if nl := strings.IndexByte(after, '\n'); nl >= 0 {
		after = after[nl+1:]
	} else {
		after = ""
	}
	return []byte(rest[:end]), []byte(after), true
}

// toolList reads tools: a YAML list, or one comma-separated string.
func toolList(n *yaml.Node) ([]string, error) {
	var raw []string
	switch n.Kind {
	case 0:
		return nil, nil
	case yaml.ScalarNode:
		raw = strings.Split(n.Value, ",")
	case yaml.SequenceNode:
		if err := n.Decode(&raw); err != nil {
			return nil, fmt.Errorf("tools must be a list of tool names: %v", err)
		}
	default:
		return nil, errors.New("tools must be a list of tool names, or one comma-separated string")
	}
	var out []string
	for _, t := range raw {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out, nil
}

// Load reads every NAME.md in dirs, later directories winning on a name.
// A directory that does not exist is skipped; a file that cannot be used
// is left out with an error saying why (the others still load).
func Load(dirs ...string) ([]Def, []error) {
	byName := map[string]Def{}
	var errs []error
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("agents in %s cannot be read: %w", dir, err))
			continue
		}
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".md") {
				continue
			}
			path := filepath.Join(dir, e.Name())
			d, err := loadFile(path, strings.TrimSuffix(e.Name(), ".md"))
			if err != nil {
				errs = append(errs, fmt.Errorf("the agent %s is not used: %w", path, err))
				continue
			}
			byName[d.Name] = d
		}
	}
	out := make([]Def, 0, len(byName))
	for _, d := range byName {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, errs
}

// maxFile bounds an agent file: it is a prompt, not a document.
const maxFile = 256 << 10

func loadFile(path, name string) (Def, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Def{}, err
	}
	if fi.Size() > maxFile {
		return Def{}, fmt.Errorf("it is larger than %d KiB", maxFile>>10)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return Def{}, err
	}
	d, err := Parse(name, data)
	d.Path = path
	return d, err
}
