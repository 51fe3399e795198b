package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// redirect records what a redirection opens. Writes (>, >>, >|, &>, &>>,
// <>, and >& to a file) go to Script.Writes with the directories a
// relative target is relative to; here-documents with expansions and
// network pseudo-files are problems.
func (a *analyser) redirect(r *syntax.Redirect) {
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		if r.Hdoc != nil {
			a.hereDoc(r.Hdoc)
		}
		return
	case syntax.WordHdoc:
		a.word(r.Word) // a here-string is data; its word is still expanded
		return
	}
	target := a.word(r.Word)
	rd := Redirect{Op: r.Op.String(), Target: target, Dirs: slices.Clone(a.dirs), Text: a.text(r)}
	if strings.HasPrefix(target.Value, "/dev/tcp/") || strings.HasPrefix(target.Value, "/dev/udp/") {
		a.seen("a redirection to "+target.Value+" opens a network connection", r)
		return
	}
	switch r.Op {
	case syntax.RdrIn:
		a.script.Reads = append(a.script.Reads, rd)
	case syntax.DplIn:
		if !isDescriptor(target) {
			a.script.Reads = append(a.script.Reads, rd)
		}
	case syntax.DplOut:
		if !isDescriptor(target) { // >&file is &>file
			a.script.Writes = append(a.script.Writes, rd)
		}
	default: // > >> >| &> &>> <>
		a.script.Writes = append(a.script.Writes, rd)
	}
}

// isDescriptor is a >& target naming a descriptor: digits or "-".
func isDescriptor(w Word) bool {
	if !w.Known() || w.Value == "" {
		return false
	}
	return w.Value == "-" || strings.Trim(w.Value, "0123456789") == ""
}

// hereDoc checks a here-document body: with a quoted delimiter it is
// literal; otherwise bash expands it, and only plain variable reads are
// harmless there.
func (a *analyser) hereDoc(body *syntax.Word) {
	for _, part := range body.Parts {
		switch x := part.(type) {
		case *syntax.Lit:
		case *syntax.ParamExp:
			var b strings.Builder
			a.param(x, &b, &Word{}, true)
		default:
			var w Word
			a.expansion(part, &w)
		}
	}
}

// SafeDevice reports a write target that writes no file: /dev/null and
// the process's own streams.
func SafeDevice(path string) bool {
	switch path {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero", "/dev/full":
		return true
	}
	return strings.HasPrefix(path, "/dev/fd/")
}
