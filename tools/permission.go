package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
)

// Verdict is the policy's answer to a tool call.
type Verdict int

// Verdicts.
const (
	Allow Verdict = iota // run without asking
	Ask                  // ask the user (headless: deny)
	Deny                 // refuse; Reason goes back to the model
)

// String is the verdict as logged: allow, ask or deny.
func (v Verdict) String() string {
	switch v {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	}
	return "deny"
}

// Decision is the policy's verdict on one call, with what a session grant
// would cover if the user picks "allow for this session".
type Decision struct {
	Verdict     Verdict
	Reason      string // why it asks or denies, for the dialog and the model
	Grant       Grant  // zero when no session grant is offered (destructive commands)
	Destructive bool
	// Target is the resolved path a file tool's decision was made for;
	// run the call with WithTarget(ctx, Target), so it acts on exactly
	// that path even if a symlink on the way is swapped afterwards.
	Target string
	// ReadOnly: a command allowed only because keel's analysis found it
	// read-only. It runs in the read-only sandbox, so a mistake in the
	// analysis costs a failed command, not an escape. Any other allowed
	// or approved command is run with WithWrites.
	ReadOnly bool
	// By says who allowed a call the policy let through, for the record
	// (keel log show): ByReadOnly, ByYolo, ByRule and the rule, or
	// BySession and the grant. "" for a call it did not allow.
	By string
}

// Who allowed a call (Decision.By).
const (
	ByReadOnly = "read-only" // a read in the workspace, a read-only tool, a command read-only by analysis
	ByYolo     = "yolo"
	ByRule     = "rule: "    // followed by the allow rule as the config has it
	BySession  = "session: " // followed by the session grant's description
)

// Grant is what "allow for this session" covers.
type Grant struct {
	Tool        string
	Commands    []string // run_command: program or "program subcommand" prefixes
	Writes      []string // run_command: files its redirections and output options may write (resolved)
	Path        string   // a path outside the workspace: reads of it and below, or writes of exactly it
	Scope       string   // a Scoper's calls reaching this scope (fetch: a host)
	Description string   // for the dialog, e.g. "run_command: go test …"
	// Always is the rule "allow always" saves in the user's config
	// ("fetch:docs.python.org"); "" when the question does not offer it.
	Always string
}

// IsZero reports an empty grant (nothing to remember).
func (g Grant) IsZero() bool { return g.Tool == "" }

// PolicyOptions are the permission settings from config and flags.
type PolicyOptions struct {
	Allow []string // rules such as "edit_file", "run_command:go test *", "write_file:/tmp/out.txt"
	Deny  []string // same syntax; deny wins over allow
	Yolo  bool     // allow everything except writes into .git and outside the workspace
	// Tools are the tools the policy judges; each one's Class() is its
	// permission class. Nil means the built-in set (New).
	Tools []Tool
	// Unconfined says why commands cannot run in the read-only sandbox
	// here ("" when they can): then no command runs without asking,
	// however read-only it looks, unless a rule, a grant or --yolo
	// allows it.
	Unconfined string
	// Persist saves a rule the user chose to allow always in the user's
	// config (Policy.Persist); nil: "always" lasts for the session.
	Persist func(rule string) error
}

// Policy decides whether a tool call runs, asks or is refused. It is safe
// for concurrent use.
type Policy struct {
	ws         *Workspace
	yolo       bool
	unconfined string
	allow      []rule
	deny       []rule
	classes    map[string]Class   // each tool's own Class(): declared once, by the tool
	reachers   map[string]Reacher // tools whose calls may reach beyond the project
	scopers    map[string]Scoper  // tools judged by what each call reaches (fetch: a host)
	persist    func(rule string) error
	groups     []Group // tools known only while the session runs (MCP servers')

	mu     sync.Mutex
	grants []Grant
}

// NewPolicy parses the rules; an unknown tool or bad pattern is an error
// naming the rule.
func NewPolicy(ws *Workspace, opts PolicyOptions) (*Policy, error) {
	p := &Policy{ws: ws, yolo: opts.Yolo, unconfined: opts.Unconfined, classes: map[string]Class{},
		reachers: map[string]Reacher{}, scopers: map[string]Scoper{}, persist: opts.Persist}
	ts := opts.Tools
	if ts == nil {
		ts = New(ws, Options{})
	}
	for _, t := range ts {
		if g, ok := t.(Group); ok {
			p.groups = append(p.groups, g)
			continue
		}
		p.classes[t.Name()] = t.Class()
		if r, ok := t.(Reacher); ok {
			p.reachers[t.Name()] = r
		}
		if sc, ok := t.(Scoper); ok {
			p.scopers[t.Name()] = sc
		}
	}
	var errs []error
	for _, s := range opts.Allow {
		r, err := p.parseRule(s)
		errs = append(errs, err)
		p.allow = append(p.allow, r)
	}
	for _, s := range opts.Deny {
		r, err := p.parseRule(s)
		errs = append(errs, err)
		p.deny = append(p.deny, r)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return p, nil
}

// Grant remembers a session grant the user gave.
func (p *Policy) Grant(g Grant) {
	if g.IsZero() {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.grants = append(p.grants, g)
}

func (p *Policy) sessionGrants() []Grant {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Grant(nil), p.grants...)
}

// callArgs are the arguments the policy looks at, for every tool.
type callArgs struct {
	Path    string `json:"path"`
	Pattern string `json:"pattern"`
	Command string `json:"command"`
	Workdir string `json:"workdir"`
}

// Decide judges one call. Precedence: .git writes and outside writes are
// denied (even with yolo, unless that exact path is allowed); deny rules
// win; destructive commands ask unless yolo; then yolo, allow rules and
// session grants allow; reads inside the workspace always run.
func (p *Policy) Decide(tool string, args json.RawMessage) Decision {
	class, ok := p.classOf(tool)
	if !ok {
		return Decision{Verdict: Deny, Reason: fmt.Sprintf("unknown tool %q", tool)}
	}
	if sc, ok := p.scopers[tool]; ok {
		return p.decideScoped(tool, sc, args)
	}
	if !builtin[tool] {
		return p.decideOther(tool, class, p.reaches(tool, args)) // its arguments mean nothing else to the policy
	}
	var a callArgs
	if len(args) > 0 {
		if err := json.Unmarshal(args, &a); err != nil {
			return Decision{Verdict: Deny, Reason: "invalid arguments: " + err.Error()}
		}
	}
	switch {
	case class == ReadOnly:
		return p.decideRead(tool, readPath(tool, a)).pin(tool != NameGlob)
	case class == Write:
		return p.decideWrite(tool, a.Path).pin(true)
	}
	return p.decideCommand(a.Command, a.Workdir)
}

// readPath is the path a read-only call reads: glob's absolute pattern
// carries its own base.
func readPath(tool string, a callArgs) string {
	if tool == NameGlob && (strings.HasPrefix(a.Pattern, "/") || strings.HasPrefix(a.Pattern, "~")) {
		base, _ := doublestar.SplitPattern(a.Pattern)
		return base
	}
	return a.Path
}

// pin keeps the decision's Target only for tools that act on the path
// itself (glob's path is a pattern's base, which it resolves on its own).
func (d Decision) pin(keep bool) Decision {
	if !keep || d.Verdict == Deny {
		d.Target = ""
	}
	return d
}

func deny(format string, a ...any) Decision {
	return Decision{Verdict: Deny, Reason: fmt.Sprintf(format, a...)}
}

// builtin are the tools whose arguments the policy reads (paths,
// commands); any other tool is judged by its name and class alone.
var builtin = map[string]bool{NameReadFile: true, NameListDir: true, NameGlob: true, NameGrep: true,
	NameWriteFile: true, NameEditFile: true, NameRunCommand: true}

// decideOther judges a tool the policy cannot look into (an MCP
// server's, recall): deny rules win; read-only ones run unless the call
// reaches beyond the project (Reacher); the rest run with --yolo or a
// rule naming the tool, else ask, offering a grant for it.
func (p *Policy) decideOther(tool string, class Class, beyond string) Decision {
	for _, r := range p.deny {
		if r.names(tool) {
			return deny("denied by the rule %q", r.raw)
		}
	}
	switch {
	case class == ReadOnly && beyond == "":
		return Decision{Verdict: Allow, By: ByReadOnly}
	case p.yolo:
		return Decision{Verdict: Allow, By: ByYolo}
	}
	for _, r := range p.allow {
		if r.names(tool) {
			return Decision{Verdict: Allow, By: ByRule + r.raw}
		}
	}
	for _, g := range p.sessionGrants() {
		if g.Tool == tool {
			return Decision{Verdict: Allow, By: BySession + g.Description}
		}
	}
	if beyond != "" {
		return Decision{Verdict: Ask, Reason: tool + " reaches beyond this project: " + beyond, Grant: Grant{Tool: tool, Description: tool + ": every call this session, other projects included"}}
	}
	return Decision{Verdict: Ask, Reason: "runs " + tool, Grant: Grant{Tool: tool, Description: tool + ": every call this session"}}
}
