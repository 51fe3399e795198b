package tools

import (
	"fmt"
	"strings"

	"github.com/keel-dev/keel/tools/shell"
)

// decideCommand judges a command from its parsed form. Precedence: a
// command bash could not parse asks; deny rules and writes into .git are
// denied (and, with --yolo, writes outside the workspace); writes to
// keel's own files or to paths keel cannot know ask, even with --yolo;
// destructive commands ask unless --yolo; with --yolo the rest runs.
// Otherwise anything keel cannot prove asks, and the command runs only
// when every call is read-only or covered by a rule or session grant and
// every file it writes is allowed.
func (p *Policy) decideCommand(command, workdir string) Decision {
	if strings.TrimSpace(command) == "" {
		return deny("command is empty")
	}
	dir, err := p.ws.Resolve(workdir)
	if err != nil {
		return deny("cannot resolve workdir %q: %v", workdir, err)
	}
	script, err := shell.Analyse(command)
	if err != nil {
		return Decision{Verdict: Ask, Reason: "keel could not read this command: " + err.Error()}
	}
	c := newCommandCheck(p, script, dir)
	for _, step := range []func() (Decision, bool){c.denied, c.alwaysAsks, c.destructive, c.opaque, c.yolo, c.unprovable, c.outside} {
		if d, done := step(); done {
			return d
		}
	}
	return c.coverage()
}

// commandCheck is one command under judgement.
type commandCheck struct {
	p       *Policy
	script  *shell.Script
	workdir string
	effects []shell.Effect // one per script.Calls
	writes  []pathUse      // every file the command writes
	reads   []pathUse      // every file it reads
}

// pathUse is a file a command writes or reads, resolved where possible.
type pathUse struct {
	abs      string // "" when unknown
	word     shell.Word
	flag     bool        // written because of a redirection or an output option: a command rule does not cover it
	call     *shell.Call // nil for redirections
	glob     bool
	original string
}

func newCommandCheck(p *Policy, s *shell.Script, workdir string) *commandCheck {
	c := &commandCheck{p: p, script: s, workdir: workdir}
	for _, call := range s.Calls {
		e := shell.Classify(call)
		c.effects = append(c.effects, e)
		c.addPaths(&c.writes, call.Dirs, e.Writes, false, call)
		c.addPaths(&c.writes, call.Dirs, e.FlagWrites, true, call)
		c.addPaths(&c.reads, call.Dirs, e.Reads, false, call)
	}
	for _, w := range s.Writes {
		c.addPaths(&c.writes, w.Dirs, []shell.Word{w.Target}, true, nil)
	}
	for _, r := range s.Reads {
		c.addPaths(&c.reads, r.Dirs, []shell.Word{r.Target}, true, nil)
	}
	return c
}

// addPaths resolves words against every directory they may be relative
// to; /dev/null and the like are no files.
func (c *commandCheck) addPaths(list *[]pathUse, dirs []string, words []shell.Word, flag bool, call *shell.Call) {
	for _, w := range words {
		if w.Known() && shell.SafeDevice(w.Value) {
			continue
		}
		for _, d := range dirs {
			abs, err := c.p.commandPath(c.workdir, d, w)
			if err != nil {
				abs = ""
			}
			*list = append(*list, pathUse{abs: abs, word: w, flag: flag, call: call, glob: w.Glob, original: w.Value})
		}
	}
}

// denied applies deny rules to every call, nested ones included, and
// refuses writes into .git (and outside the workspace under --yolo).
func (c *commandCheck) denied() (Decision, bool) {
	for i, call := range c.script.Calls {
		words := baseNamed(c.effects[i].Canonical)
		for _, r := range c.p.deny {
			if r.matchesCommand(words) || r.matchesCommand(baseNamed(call.Values())) {
				return deny("denied by the rule %q: %s", r.raw, strings.Join(words, " ")), true
			}
		}
	}
	for _, w := range c.writes {
		for _, r := range c.p.deny {
			if w.abs != "" && (r.matchesPath(NameWriteFile, w.abs) || r.matchesPath(NameEditFile, w.abs)) {
				return deny("denied by the rule %q: writes %s", r.raw, c.p.ws.Rel(w.abs)), true
			}
		}
		switch {
		case w.abs != "" && InGitDir(w.abs), w.glob && globMayMatch(w.original, ".git"):
			return deny("writes into .git are never allowed: %s", orWord(w)), true
		case w.abs != "" && c.p.yolo && !c.p.ws.Inside(w.abs) && !inTempDir(w.abs):
			return deny("--yolo does not allow writing outside the workspace: %s", w.abs), true
		}
	}
	for _, r := range c.reads {
		for _, rule := range c.p.deny {
			if r.abs != "" && rule.matchesPath(NameReadFile, r.abs) {
				return deny("denied by the rule %q: reads %s", rule.raw, c.p.ws.Rel(r.abs)), true
			}
		}
	}
	return Decision{}, false
}

// alwaysAsks: writes to keel's own files, and writes keel cannot locate,
// ask even under --yolo.
func (c *commandCheck) alwaysAsks() (Decision, bool) {
	for _, w := range c.writes {
		switch {
		case w.abs != "" && Protected(w.abs), w.glob && (globMayMatch(w.original, ".keel") || globMayMatch(w.original, "AGENTS.md")):
			return Decision{Verdict: Ask, Reason: "writes keel's own configuration or instructions: " + orWord(w)}, true
		case w.abs == "":
			return Decision{Verdict: Ask, Reason: "writes to a file keel cannot know before the command runs: " + w.original}, true
		case !c.p.yolo && !c.p.ws.Inside(w.abs) && !c.writeAllowedOutside(w.abs):
			return Decision{Verdict: Ask, Reason: "writes outside the workspace: " + w.abs}, true
		}
	}
	return Decision{}, false
}

func (c *commandCheck) writeAllowedOutside(abs string) bool {
	return c.p.exactlyAllowed(NameWriteFile, abs)
}

// destructive: commands that throw work away ask, never with a grant;
// --yolo runs them (see yolo).
func (c *commandCheck) destructive() (Decision, bool) {
	if why := c.destructiveReason(); why != "" && !c.p.yolo {
		return Decision{Verdict: Ask, Destructive: true, Reason: "destructive: " + why}, true
	}
	return Decision{}, false
}

func (c *commandCheck) destructiveReason() string {
	for i, call := range c.script.Calls {
		if why := c.effects[i].Destructive; why != "" {
			return why + ": " + displayCall(call)
		}
	}
	return downloadsAndRuns(c.script)
}

// opaque: code keel could not see at all (a script read from input, a
// program named by a variable, arithmetic on variables, PATH=…) asks even
// under --yolo, since its writes into .git or keel's files cannot be found.
func (c *commandCheck) opaque() (Decision, bool) {
	if pr, ok := c.script.Opaque(); ok {
		return Decision{Verdict: Ask, Reason: "keel cannot see all the code this command runs: " + pr.String()}, true
	}
	return Decision{}, false
}

func (c *commandCheck) yolo() (Decision, bool) {
	if !c.p.yolo {
		return Decision{}, false
	}
	why := c.destructiveReason()
	return Decision{Verdict: Allow, Destructive: why != "", Reason: why, By: ByYolo}, true
}

// unprovable: constructs keel cannot check, and calls no rule may cover,
// ask without offering a session grant.
func (c *commandCheck) unprovable() (Decision, bool) {
	if len(c.script.Problems) > 0 {
		return Decision{Verdict: Ask, Reason: "keel cannot check this command before it runs: " + c.script.Problems[0].String()}, true
	}
	for i, call := range c.script.Calls {
		if b := c.effects[i].Blocker; b != "" {
			return Decision{Verdict: Ask, Reason: fmt.Sprintf("no rule can allow %s: %s", displayCall(call), b)}, true
		}
	}
	return Decision{}, false
}

// outside: running in, or reading from, outside the workspace asks.
func (c *commandCheck) outside() (Decision, bool) {
	for _, call := range c.script.Calls {
		for _, d := range call.Dirs {
			dir, err := c.p.commandDir(c.workdir, d)
			switch {
			case err != nil:
				return Decision{Verdict: Ask, Reason: "runs in a directory keel cannot know before the command runs: " + call.Text}, true
			case !c.p.ws.Inside(dir):
				return Decision{Verdict: Ask, Reason: "runs outside the workspace, in " + dir}, true
			}
		}
	}
	for _, r := range c.reads {
		if r.word.Known() && safeReadDevice(r.word.Value) {
			continue
		}
		if r.abs == "" {
			return Decision{Verdict: Ask, Reason: "reads a path keel cannot know before the command runs: " + r.original}, true
		}
		if d := c.p.decideRead(NameReadFile, r.abs); d.Verdict != Allow {
			return d, true
		}
	}
	return Decision{}, false
}

// coverage allows the command when every call is read-only or covered by
// a rule or grant, and every redirection or output file is allowed;
// otherwise it asks, offering a grant of exactly what was missing.
func (c *commandCheck) coverage() Decision {
	grants := c.p.sessionGrants()
	var missing [][]string
	var texts, wrote []string
	var by allowedBy
	for i, call := range c.script.Calls {
		e := c.effects[i]
		if e.ReadOnly || by.note(c.p.commandCover(e.Canonical, grants)) {
			if d, ask := c.p.gitConfigAsks(c.workdir, call, e); ask {
				return d
			}
			continue
		}
		missing = append(missing, e.Canonical)
		texts = append(texts, displayCall(call))
	}
	var writes []string
	for _, w := range c.writes {
		// a call's own write is first credited to what covers the call
		if !c.p.ws.Inside(w.abs) || !w.flag && w.call != nil && by.note(c.callCover(w.call, grants)) || by.note(c.p.writeCover(w, grants)) {
			continue
		}
		if !contains(writes, w.abs) {
			writes = append(writes, w.abs)
			wrote = append(wrote, c.p.ws.Rel(w.abs))
		}
	}
	switch {
	case len(missing) == 0 && len(writes) == 0 && c.readOnly() && c.p.unconfined != "":
		return Decision{Verdict: Ask, Reason: "keel runs no command without asking here: " + c.p.unconfined,
			Grant: commandGrant(c.canonicals(), nil, c.p.ws)}
	case len(missing) == 0 && len(writes) == 0:
		return Decision{Verdict: Allow, ReadOnly: c.readOnly(), By: by.or(ByReadOnly)}
	}
	var reason []string
	if len(texts) > 0 {
		reason = append(reason, "runs "+strings.Join(texts, "; "))
	}
	if len(wrote) > 0 {
		reason = append(reason, "writes "+strings.Join(wrote, ", "))
	}
	return Decision{Verdict: Ask, Reason: strings.Join(reason, " and "), Grant: commandGrant(missing, writes, c.p.ws)}
}

// readOnly reports that every call is read-only by the analysis alone
// (no rule or grant was needed) and nothing is written: such a command
// runs in the read-only sandbox.
func (c *commandCheck) readOnly() bool {
	for _, e := range c.effects {
		if !e.ReadOnly {
			return false
		}
	}
	for _, w := range c.writes {
		if w.abs != "" {
			return false
		}
	}
	return true
}

// canonicals are every call's canonical words.
func (c *commandCheck) canonicals() [][]string {
	out := make([][]string, len(c.effects))
	for i, e := range c.effects {
		out[i] = e.Canonical
	}
	return out
}

// callCover is the rule or grant that covers a call, and so its own
// writes (cp's destination); "" when none does.
func (c *commandCheck) callCover(call *shell.Call, grants []Grant) string {
	for i, cl := range c.script.Calls {
		if cl == call {
			return c.p.commandCover(c.effects[i].Canonical, grants)
		}
	}
	return ""
}

// commandCover is the allow rule or session grant covering the command's
// canonical words (ByRule or BySession and which); "" when none does.
func (p *Policy) commandCover(words []string, grants []Grant) string {
	for _, r := range p.allow {
		if r.matchesCommand(words) {
			return ByRule + r.raw
		}
	}
	for _, g := range grants {
		if g.Tool != NameRunCommand {
			continue
		}
		for _, prefix := range g.Commands {
			if coveredBy(words, prefix) {
				return BySession + g.Description
			}
		}
	}
	return ""
}

// writeCover is what allows a write: a rule or grant allowing write_file
// of that path, or a session grant naming it; "" when nothing does.
func (p *Policy) writeCover(w pathUse, grants []Grant) string {
	if by := p.allowedToolBy(NameWriteFile, w.abs); by != "" && !w.glob {
		return by
	}
	for _, g := range grants {
		if g.Tool == NameRunCommand && contains(g.Writes, w.abs) {
			return BySession + g.Description
		}
	}
	return ""
}

// allowedBy collects who covered a command's calls and writes: the first
// session grant, else the first rule.
type allowedBy string

// note keeps by (a session grant over a rule) and reports whether it
// covers anything.
func (a *allowedBy) note(by string) bool {
	if by == "" {
		return false
	}
	if *a == "" || strings.HasPrefix(by, BySession) && !strings.HasPrefix(string(*a), BySession) {
		*a = allowedBy(by)
	}
	return true
}

// or is who allowed the command, def when no rule or grant was needed.
func (a allowedBy) or(def string) string {
	if a == "" {
		return def
	}
	return string(a)
}

// commandGrant offers the program-and-subcommand prefixes of the calls
// not covered and the exact files written.
func commandGrant(missing [][]string, writes []string, ws *Workspace) Grant {
	var cmds, desc []string
	for _, words := range missing {
		prefix := grantPrefix(words)
		if prefix != "" && !contains(cmds, prefix) {
			cmds = append(cmds, prefix)
			desc = append(desc, prefix+" …")
		}
	}
	for _, w := range writes {
		desc = append(desc, "writing "+ws.Rel(w))
	}
	if len(desc) == 0 {
		return Grant{}
	}
	return Grant{Tool: NameRunCommand, Commands: cmds, Writes: writes, Description: "run_command: " + strings.Join(desc, ", ")}
}

// baseNamed is words with the program as its base name, for deny rules:
// /bin/rm is rm and so is ./rm.
func baseNamed(words []string) []string {
	if len(words) == 0 {
		return words
	}
	out := append([]string(nil), words...)
	out[0] = out[0][strings.LastIndexByte(out[0], '/')+1:]
	return out
}

// downloadsAndRuns reports a download run by a shell: curl … | sh, and
// anything fetched while a shell reads its script from input.
func downloadsAndRuns(s *shell.Script) string {
	fetch := false
	for _, call := range s.Calls {
		switch call.Program() {
		case "curl", "wget":
			fetch = true
		}
	}
	if !fetch {
		return ""
	}
	for _, pr := range s.Problems {
		if strings.Contains(pr.What, "standard input") || strings.Contains(pr.What, "substitution") {
			return "runs a downloaded script (curl | sh)"
		}
	}
	return ""
}

func orWord(w pathUse) string {
	if w.abs != "" {
		return w.abs
	}
	return w.original
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// displayCall is a call as the user reads it in a question: its words as
// bash will pass them, quoted where needed.
func displayCall(c *shell.Call) string {
	out := make([]string, len(c.Args))
	for i, w := range c.Args {
		out[i] = quoteWord(w.Value)
	}
	return strings.Join(out, " ")
}

// quoteWord single-quotes a word that holds anything but plain characters.
func quoteWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=@%+,-*?~{}^") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// safeReadDevice is a device file that reading reveals nothing from.
func safeReadDevice(p string) bool {
	switch p {
	case "/dev/null", "/dev/zero", "/dev/urandom", "/dev/random", "/dev/stdin":
		return true
	}
	return false
}
