package shell

import (
	"slices"

	"mvdan.cc/sh/v3/syntax"
)

// analyser walks one script (the command line, or a nested bash -c
// script) and records into a shared Script.
type analyser struct {
	src    string
	script *Script
	depth  int      // nesting of bash -c and eval scripts
	via    []string // wrappers and nesting leading here
	nested bool     // inside a construct keel cannot check

	dirs  []string          // possible working directories now
	loops map[string][]Word // loop variables and the words they take
	set   map[string]int    // how often each variable is assigned in this script
}

func newAnalyser(src string, s *Script) *analyser {
	return &analyser{src: src, script: s, dirs: []string{""}, loops: map[string][]Word{}, set: map[string]int{}}
}

// child is an analyser for a nested script run in the current context.
func (a *analyser) child(src string, via string) *analyser {
	c := newAnalyser(src, a.script)
	c.depth = a.depth + 1
	c.via = append(slices.Clip(a.via), via)
	c.nested = a.nested
	c.dirs = slices.Clone(a.dirs)
	return c
}

func (a *analyser) file(f *syntax.File) {
	a.countAssignments(f)
	a.checkBackquotes(f)
	a.stmts(f.Stmts)
}

// checkBackquotes: bash ends `…` at the first unescaped backquote, before
// it parses what is inside, so a backquote inside a here-document or a
// nested $( ) ends it where a parser of the inner syntax would not.
// Where the two readings differ, keel cannot know what runs.
func (a *analyser) checkBackquotes(f *syntax.File) {
	syntax.Walk(f, func(n syntax.Node) bool {
		cs, ok := n.(*syntax.CmdSubst)
		if !ok || !cs.Backquotes {
			return true
		}
		start, end := int(cs.Left.Offset())+1, int(cs.Right.Offset())
		if start > end || end > len(a.src) || a.src[end] != '`' || unescapedBackquote(a.src[start:end]) {
			a.script.Problems = append(a.script.Problems, Problem{What: "backquotes that bash may end elsewhere", Text: a.text(cs), Opaque: true})
		}
		return true
	})
}

// unescapedBackquote reports a backquote not preceded by a backslash.
func unescapedBackquote(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '`':
			return true
		}
	}
	return false
}

// text is the source of a node.
func (a *analyser) text(n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(a.src) || start > end {
		return ""
	}
	return a.src[start:end]
}

// problem records a construct keel cannot check and whose code it may
// not see in full, and still looks inside it for commands (so deny rules
// and destructive checks see them).
func (a *analyser) problem(what string, n syntax.Node) {
	a.record(what, n, true)
}

// seen records a construct keel cannot prove safe but whose commands and
// writes it did see (a command substitution: its commands are analysed).
func (a *analyser) seen(what string, n syntax.Node) {
	a.record(what, n, false)
}

func (a *analyser) record(what string, n syntax.Node, opaque bool) {
	text := ""
	if n != nil {
		text = a.text(n)
	}
	a.script.Problems = append(a.script.Problems, Problem{What: what, Text: text, Opaque: opaque})
	if n != nil {
		a.inside(n)
	}
}

// opaque records a problem about a call: code keel cannot see.
func (a *analyser) opaque(what string, c *Call) {
	a.script.Problems = append(a.script.Problems, Problem{What: what, Text: c.Text, Opaque: true})
}

// inside analyses the command and process substitutions within n, marked
// nested: they run, but nothing about them can be proven safe.
func (a *analyser) inside(n syntax.Node) {
	syntax.Walk(n, func(node syntax.Node) bool {
		switch x := node.(type) {
		case *syntax.CmdSubst:
			a.nestedStmts(x.Stmts)
			return false
		case *syntax.ProcSubst:
			a.nestedStmts(x.Stmts)
			return false
		}
		return true
	})
}

func (a *analyser) nestedStmts(stmts []*syntax.Stmt) {
	saved, savedDirs := a.nested, slices.Clone(a.dirs)
	a.nested = true
	a.stmts(stmts)
	a.nested, a.dirs = saved, savedDirs
}

func (a *analyser) stmts(stmts []*syntax.Stmt) {
	for _, s := range stmts {
		a.stmt(s)
	}
}

// stmt analyses one statement with its redirections.
func (a *analyser) stmt(s *syntax.Stmt) {
	for _, r := range s.Redirs {
		a.redirect(r)
	}
	if s.Cmd == nil {
		return
	}
	if s.Background || s.Coprocess || s.Disown {
		a.scoped(func() { a.command(s.Cmd) })
		return
	}
	a.command(s.Cmd)
}

// scoped runs f in a subshell: a cd inside does not outlive it.
func (a *analyser) scoped(f func()) {
	saved := slices.Clone(a.dirs)
	f()
	a.dirs = saved
}

// command dispatches on the kind of command. Anything not listed is a
// problem: the analysis is default-deny.
func (a *analyser) command(c syntax.Command) {
	switch x := c.(type) {
	case *syntax.CallExpr:
		a.callExpr(x)
	case *syntax.BinaryCmd:
		a.binary(x)
	case *syntax.Block:
		a.stmts(x.Stmts)
	case *syntax.Subshell:
		a.scoped(func() { a.stmts(x.Stmts) })
	case *syntax.IfClause:
		a.ifClause(x)
	case *syntax.WhileClause:
		a.loop(func() { a.stmts(x.Cond); a.stmts(x.Do) }, append(slices.Clone(x.Cond), x.Do...))
	case *syntax.ForClause:
		a.forClause(x)
	case *syntax.CaseClause:
		a.caseClause(x)
	case *syntax.TestClause:
		a.testExpr(x.X)
	case *syntax.DeclClause:
		a.declClause(x)
	case *syntax.TimeClause:
		if x.Stmt != nil {
			a.stmt(x.Stmt)
		}
	case *syntax.FuncDecl:
		a.seen("defines a function, which can replace any command", nil)
		a.script.Problems[len(a.script.Problems)-1].Text = a.text(x)
		a.nestedStmts([]*syntax.Stmt{x.Body})
	case *syntax.ArithmCmd:
		a.problem("arithmetic ((…)) can run commands hidden in variables", x)
	case *syntax.LetClause:
		a.problem("let evaluates arithmetic, which can run commands hidden in variables", x)
	case *syntax.CoprocClause:
		a.coproc(x)
	default:
		a.problem("a shell construct keel does not check", c)
	}
}

// coproc runs its command in the background. bash reads a name only
// before a compound command (coproc NAME { …; }); the parser also takes
// the first word of a simple command as the name (coproc bash <<< …),
// so what runs there is not what keel would analyse.
func (a *analyser) coproc(x *syntax.CoprocClause) {
	if x.Name != nil && !compound(x.Stmt.Cmd) {
		a.problem("coproc with a command keel reads differently from bash", x)
		return
	}
	a.seen("coproc runs a command in the background keel cannot follow", nil)
	a.script.Problems[len(a.script.Problems)-1].Text = a.text(x)
	a.nestedStmts([]*syntax.Stmt{x.Stmt})
}

// compound reports a command bash accepts after coproc NAME.
func compound(c syntax.Command) bool {
	switch c.(type) {
	case *syntax.Block, *syntax.Subshell, *syntax.IfClause, *syntax.WhileClause, *syntax.ForClause,
		*syntax.CaseClause, *syntax.TestClause, *syntax.ArithmCmd:
		return true
	}
	return false
}

func (a *analyser) binary(x *syntax.BinaryCmd) {
	if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
		a.scoped(func() { a.stmt(x.X) })
		a.scoped(func() { a.stmt(x.Y) })
		return
	}
	a.stmt(x.X) // && and ||: Y runs after X, in the directory X left
	a.stmt(x.Y)
}

func (a *analyser) ifClause(x *syntax.IfClause) {
	for c := x; c != nil; c = c.Else {
		a.stmts(c.Cond)
		a.stmts(c.Then)
	}
}

// loop analyses a loop body. A loop that changes directory may do it any
// number of times, so relative paths inside it are unknown.
func (a *analyser) loop(body func(), stmts []*syntax.Stmt) {
	if changesDir(stmts) {
		a.dirs = appendUnique(a.dirs, UnknownDir)
	}
	body()
}

func (a *analyser) forClause(x *syntax.ForClause) {
	wi, ok := x.Loop.(*syntax.WordIter)
	if !ok {
		a.problem("a C-style for loop evaluates arithmetic", x)
		return
	}
	var items []Word
	for _, w := range wi.Items {
		items = append(items, a.words(w)...)
	}
	name := wi.Name.Value
	saved, had := a.loops[name]
	if a.set[name] == 1 { // assigned only by this loop: its value is one of the items
		a.loops[name] = items
	}
	a.loop(func() { a.stmts(x.Do) }, x.Do)
	if had {
		a.loops[name] = saved
	} else {
		delete(a.loops, name)
	}
}

func (a *analyser) caseClause(x *syntax.CaseClause) {
	a.word(x.Word)
	for _, item := range x.Items {
		for _, p := range item.Patterns {
			a.word(p)
		}
		a.stmts(item.Stmts)
	}
}

// changesDir reports a cd, pushd or popd anywhere in stmts.
func changesDir(stmts []*syntax.Stmt) bool {
	found := false
	for _, s := range stmts {
		syntax.Walk(s, func(n syntax.Node) bool {
			if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
				switch c.Args[0].Lit() {
				case "cd", "pushd", "popd":
					found = true
				}
			}
			return !found
		})
	}
	return found
}

func appendUnique(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}
