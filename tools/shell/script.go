package shell

import "strings"

// Script is what a command line would do, as far as it can be known
// before it runs.
type Script struct {
	Calls    []*Call    // every simple command, in source order, nested ones included
	Writes   []Write    // files opened for writing by redirections
	Problems []Problem  // constructs whose effect cannot be known in advance
	Reads    []Redirect // files read by < redirections (and here-strings are data)
}

// Problem is a construct whose effect cannot be known before the command
// runs. What is plain words for the user ("command substitution $(…)").
type Problem struct {
	What string
	Text string // the source text of the construct
	// Opaque: keel could not see all the code it may run (a shell script
	// read from input, source, arithmetic on variables, PATH=…). Problems
	// that are not opaque (a command substitution) were looked into: their
	// commands are Calls and their writes Writes.
	Opaque bool
}

func (p Problem) String() string {
	if p.Text == "" {
		return p.What
	}
	return p.What + ": " + p.Text
}

// Opaque reports whether any problem hides code keel could not see.
func (s *Script) Opaque() (Problem, bool) {
	for _, p := range s.Problems {
		if p.Opaque {
			return p, true
		}
	}
	return Problem{}, false
}

// Word is one word of a command after bash's quote removal.
type Word struct {
	Value   string // literal value; for a glob, the pattern with quoting removed
	Glob    bool   // has unquoted *, ? or [: bash replaces it by matching file names
	Dynamic bool   // holds a variable's value, unknown before the command runs
	Quoted  bool   // some part was quoted (a glob character there is literal)
}

// Known reports a word whose value is exactly Value when the command runs.
func (w Word) Known() bool { return !w.Glob && !w.Dynamic }

// MayBeOption reports whether the word could start with "-" when it
// runs: a dynamic word, or a glob that could match a name starting with -.
func (w Word) MayBeOption() bool {
	switch {
	case w.Dynamic:
		return true
	case w.Glob:
		return w.Value == "" || strings.ContainsRune("*?[", rune(w.Value[0])) || w.Value[0] == '-'
	}
	return strings.HasPrefix(w.Value, "-")
}

// Call is one simple command the script runs, after wrappers such as env,
// timeout, xargs or sudo were taken off (they are listed in Via).
type Call struct {
	Args     []Word   // Args[0] is the program as written
	Env      []Assign // NAME=value the program gets: prefix assignments, env NAME=value
	Dirs     []string // directories it may run in: "" is the start directory (see Script docs)
	Via      []string // wrappers and nesting that lead to it, outermost first: "sudo", "xargs", "bash -c"
	MoreArgs bool     // receives more arguments when it runs (xargs, find -exec … +)
	Nested   bool     // inside a construct keel cannot check (a substitution); it runs, but only deny and destructive checks apply
	Text     string   // source text
}

// Assign is NAME=value given to a program's environment.
type Assign struct {
	Name  string
	Value Word
}

// Program is the program's name as rules see it: the base name of a bare
// or absolute path (/usr/bin/git is git), a relative path as written
// (./run.sh). It is "" when the program is not a known word.
func (c *Call) Program() string {
	if len(c.Args) == 0 || !c.Args[0].Known() {
		return ""
	}
	p := c.Args[0].Value
	if strings.HasPrefix(p, "/") {
		return p[strings.LastIndexByte(p, '/')+1:]
	}
	return p
}

// Values are the argument values, the program as Program names it.
func (c *Call) Values() []string {
	out := make([]string, len(c.Args))
	for i, a := range c.Args {
		out[i] = a.Value
	}
	if len(out) > 0 {
		out[0] = c.Program()
	}
	return out
}

// Redirect is a redirection to or from a file.
type Redirect struct {
	Op     string // as written: ">", ">>", "&>", ">|", "<>", ">&", "<", …
	Target Word
	Dirs   []string // directories a relative target is relative to
	Text   string
}

// Write is a file a redirection opens for writing.
type Write = Redirect

// UnknownDir stands for a working directory keel cannot know (cd $X, cd -).
const UnknownDir = "\x00unknown"
