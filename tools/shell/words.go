package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// maxBraceWords caps brace expansion; a bigger one is a problem.
const maxBraceWords = 64

// words evaluates an argument word as bash would before running the
// command: brace expansion may turn it into several words, and a loop
// variable standing alone takes each of its items.
func (a *analyser) words(w *syntax.Word) []Word {
	if items, ok := a.loopItems(w); ok {
		return items
	}
	split := &syntax.Word{Parts: slices.Clone(w.Parts)} // SplitBraces rewrites its word
	if !syntax.SplitBraces(split) {
		return []Word{a.word(w)}
	}
	var out []Word
	for bw, err := range expand.BracesSeq(nil, split) {
		if err != nil || len(out) == maxBraceWords {
			a.seen("a brace expansion too large to check", nil)
			return []Word{{Value: a.text(w), Dynamic: true}}
		}
		if len(bw.Parts) > 0 { // an empty alternative ({,x}) is no word
			out = append(out, a.word(bw))
		}
	}
	return out
}

// loopItems substitutes a word that is only $f or "$f" for f, a loop
// variable assigned nowhere else: bash runs the body once per item.
func (a *analyser) loopItems(w *syntax.Word) ([]Word, bool) {
	if len(w.Parts) != 1 {
		return nil, false
	}
	part := w.Parts[0]
	if dq, ok := part.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		part = dq.Parts[0]
	}
	pe, ok := part.(*syntax.ParamExp)
	if !ok || !simpleParam(pe) {
		return nil, false
	}
	items, ok := a.loops[pe.Param.Value]
	if !ok {
		return nil, false
	}
	return items, true
}

// word evaluates one word without brace expansion: quote removal,
// variables (their values are unknown), and glob characters noted.
func (a *analyser) word(w *syntax.Word) Word {
	var out Word
	var b strings.Builder
	for i, part := range w.Parts {
		switch x := part.(type) {
		case *syntax.Lit:
			lit := x.Value
			if i == 0 {
				lit = a.tilde(lit, &out)
			}
			v, glob := unquotedLit(lit)
			b.WriteString(v)
			out.Glob = out.Glob || glob
		case *syntax.SglQuoted:
			out.Quoted = true
			if x.Dollar {
				b.WriteString(ansiC(x.Value))
			} else {
				b.WriteString(x.Value)
			}
		case *syntax.DblQuoted:
			out.Quoted = true
			a.dblQuoted(x, &b, &out)
		case *syntax.ParamExp:
			a.param(x, &b, &out, false)
		default:
			b.WriteString(a.text(part)) // shown as written; its value is unknown
			a.expansion(part, &out)
		}
	}
	out.Value = b.String()
	return out
}

// tilde handles a leading unquoted ~: ~ and ~/x name the home directory
// (kept as written for the workspace to resolve); ~user, ~+ and ~- are
// unknown.
func (a *analyser) tilde(lit string, out *Word) string {
	if !strings.HasPrefix(lit, "~") {
		return lit
	}
	if lit == "~" || strings.HasPrefix(lit, "~/") {
		return lit
	}
	out.Dynamic = true
	return lit
}

func (a *analyser) dblQuoted(q *syntax.DblQuoted, b *strings.Builder, out *Word) {
	for _, part := range q.Parts {
		switch x := part.(type) {
		case *syntax.Lit:
			b.WriteString(dblQuotedLit(x.Value))
		case *syntax.ParamExp:
			a.param(x, b, out, true)
		default:
			b.WriteString(a.text(part))
			a.expansion(part, out)
		}
	}
}

// param is a variable read. Only a plain $name or ${name} is allowed: its
// value is unknown but it runs nothing. Operators (${x:-…}, ${x:=…},
// ${a[…]}, ${!x}, ${x/…/…}, ${#x}) are problems.
//
// Where bash and the parser read an operator's word differently, keel
// cannot see the code that runs: inside double quotes (and here-documents)
// bash reads single quotes there as plain characters, so "${x:-'$(cmd)'}"
// runs cmd; and the parser reads <(…) there as plain text, which bash runs.
func (a *analyser) param(pe *syntax.ParamExp, b *strings.Builder, out *Word, dquoted bool) {
	if !simpleParam(pe) {
		b.WriteString(a.text(pe))
		what := "a parameter expansion with an operator (${…}) can run or hide commands"
		if arithmeticParam(pe) || dquoted && hasSingleQuotes(pe) || hidesProcSubst(pe) {
			a.problem(what, pe) // an index, a slice or ${x@P} evaluates a variable's value as code
		} else {
			a.seen(what, pe)
		}
		out.Dynamic = true
		return
	}
	b.WriteString("$" + pe.Param.Value)
	out.Dynamic = true
}

// expansion is any other word part: command, process and arithmetic
// substitution, extended globs. None can be checked before it runs.
func (a *analyser) expansion(part syntax.WordPart, out *Word) {
	out.Dynamic = true
	switch part.(type) {
	case *syntax.CmdSubst:
		a.seen("command substitution $(…) runs a command whose output keel cannot check", part)
	case *syntax.ProcSubst:
		a.seen("process substitution <(…) runs a command keel cannot check", part)
	case *syntax.ArithmExp:
		a.problem("arithmetic $((…)) can run commands hidden in variables", part)
	case *syntax.ExtGlob:
		a.seen("an extended glob pattern", part)
	default:
		a.problem("a shell expansion keel does not check", part)
	}
}

// arithmeticParam is a parameter expansion that evaluates text as code:
// an array index or a slice (arithmetic), a transformation such as
// ${x@P} (prompt expansion), zsh's nested forms.
func arithmeticParam(pe *syntax.ParamExp) bool {
	return pe.Index != nil || pe.Slice != nil || pe.NestedParam != nil || pe.Flags != nil || len(pe.Modifiers) > 0 ||
		pe.Exp != nil && strings.HasPrefix(pe.Exp.Op.String(), "@")
}

// hidesProcSubst reports <( or >( in a literal inside pe, which bash
// runs as a process substitution and the parser keeps as text.
func hidesProcSubst(pe *syntax.ParamExp) bool {
	found := false
	syntax.Walk(pe, func(n syntax.Node) bool {
		if l, ok := n.(*syntax.Lit); ok && (strings.Contains(l.Value, "<(") || strings.Contains(l.Value, ">(")) {
			found = true
		}
		return !found
	})
	return found
}

// hasSingleQuotes reports a '…' anywhere inside n.
func hasSingleQuotes(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		if _, ok := n.(*syntax.SglQuoted); ok {
			found = true
		}
		return !found
	})
	return found
}

// simpleParam is $name or ${name} with nothing else.
func simpleParam(pe *syntax.ParamExp) bool {
	return pe.Param != nil && pe.Flags == nil && !pe.Excl && !pe.Length && !pe.Width && !pe.IsSet &&
		pe.NestedParam == nil && pe.Index == nil && len(pe.Modifiers) == 0 && pe.Slice == nil &&
		pe.Repl == nil && pe.Names == 0 && pe.Exp == nil &&
		pe.Split == syntax.OptUnset && pe.GlobSubst == syntax.OptUnset && pe.RcExpand == syntax.OptUnset
}

// unquotedLit removes backslash quoting from an unquoted literal and
// reports unquoted glob characters.
func unquotedLit(s string) (string, bool) {
	if !strings.ContainsAny(s, `\*?[`) {
		return s, false
	}
	var b strings.Builder
	glob := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
			continue
		case c == '*' || c == '?':
			glob = true
		case c == '[' && strings.IndexByte(s[i+1:], ']') >= 0:
			glob = true
		}
		b.WriteByte(c)
	}
	return b.String(), glob
}

// dblQuotedLit removes the backslashes that quote $ ` " \ or a newline
// inside double quotes; other backslashes stay.
func dblQuotedLit(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
