// Package recall is the recall tool: the model searches the past sessions
// of its project in the datalog (their prompts, final answers, plan goals
// and tool calls) and gets dated snippets with session ids it can cite.
// It is read-only and leaves out the running session, whose rounds the
// model has in front of it. Other projects' sessions are searched only
// when the user allows it: a call with all_projects asks (tools.Reacher). It imports agent/datalog; tools does not.
package recall

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/tools"
)

// Name is the tool's name.
const Name = "recall"

const description = `Search your past keel sessions in this project: the user's prompts, your final answers, plan goals and the tool calls made (command or path, not their output). Use it when the user refers to earlier work ("like last time", "the bug we fixed") or before redoing an investigation that may have been done. Returns dated snippets, best match first, each with its session id (cite it). Every word must match, else any word; "quoted phrases" and prefix* work. The running session is left out. Only this project is searched unless all_projects is set; searching other projects asks the user first (headless it is refused unless the rule "recall" allows it), so set it only when the user asked about another project.`

// params are the tool's arguments; their tags make its schema.
type params struct {
	Query       string `json:"query" description:"The words to look for, e.g. flaky parser test."`
	AllProjects bool   `json:"all_projects,omitempty" description:"Search the sessions of every project, not only this one. Asks the user first."`
	Limit       int    `json:"limit,omitempty" description:"Most snippets to return (default 10, at most 50)."`
}

// maxLimit caps what one call returns: the snippets go into the context.
const maxLimit = 50

// Options configure the tool.
type Options struct {
	// Open opens the datalog for reading; an error wrapping
	// os.ErrNotExist means there is none yet. Nil: keel has no datalog.
	Open func() (*datalog.DB, error)
	// Root is the project's root, as the datalog records it.
	Root string
}

// Tool is the recall tool. Exclude names the running session once it is
// known.
type Tool struct {
	tools.Tool
	opts    Options
	mu      sync.Mutex
	current func() string
}

var (
	_ tools.Tool    = (*Tool)(nil)
	_ tools.Reacher = (*Tool)(nil)
)

// Beyond reports a search of every project: other projects' prompts,
// answers and commands (and whatever secrets they hold), which the
// policy asks the user about before the call runs.
func (t *Tool) Beyond(args json.RawMessage) string {
	var p params
	if json.Unmarshal(args, &p) != nil || !p.AllProjects {
		return ""
	}
	return "searches the past sessions of every project, not only " + t.opts.Root
}

// New returns the recall tool.
func New(opts Options) *Tool {
	t := &Tool{opts: opts}
	t.Tool = tools.NewTool(Name, description, tools.ReadOnly, nil, t.run)
	return t
}

// Exclude sets the function that names the running session (its datalog
// id, "" when unknown), whose rounds recall leaves out.
func (t *Tool) Exclude(current func() string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.current = current
}

func (t *Tool) exclude() string {
	t.mu.Lock()
	current := t.current
	t.mu.Unlock()
	if current == nil {
		return ""
	}
	return current()
}

// run searches. What the model can act on (no datalog, an empty query,
// nothing found) is a result; a Go error would mean the harness broke,
// and a datalog that cannot be read is not that either.
func (t *Tool) run(ctx context.Context, p params) (tools.Result, error) {
	if strings.TrimSpace(p.Query) == "" {
		return tools.ErrResult("query is empty: give the words to look for"), nil
	}
	if t.opts.Open == nil {
		return tools.ErrResult("keel keeps no datalog in this run, so there are no past sessions to search"), nil
	}
	db, err := t.opts.Open()
	if errors.Is(err, os.ErrNotExist) {
		return tools.Result{Output: "no past sessions: nothing has been recorded yet"}, nil
	}
	if err != nil {
		return tools.ErrResult("the datalog cannot be read: %v", err), nil
	}
	defer db.Close()
	q := datalog.SearchQuery{Text: p.Query, Project: t.opts.Root, Exclude: t.exclude(), Limit: min(max(p.Limit, 0), maxLimit)}
	if p.AllProjects {
		q.Project = ""
	}
	hits, err := db.Search(ctx, q)
	if err != nil {
		return tools.ErrResult("%v", err), nil
	}
	return tools.Result{Output: format(p, hits)}, nil
}
