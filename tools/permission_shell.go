package tools

import (
	"errors"
	"strings"
)

// shellPart is one simple command of a shell command line: its words
// (quotes removed, leading VAR=value assignments split off), its output
// redirections, and whether it reads a pipe from the part before it.
type shellPart struct {
	assigns   []string
	words     []string
	redirects []string // output redirection targets, as written
	piped     bool     // preceded by | or |&
}

// text is the part as rules see it: its words joined by spaces.
func (p shellPart) text() string { return strings.Join(p.words, " ") }

// shellLexer splits a command line on ; & && || | |& newlines, subshells
// ( ), command substitutions $( ) and backticks, and process substitution
// <( ) >( ). Nested commands become parts of their own. It is not a shell:
// it recognises enough syntax that no command hides inside another.
type shellLexer struct {
	s        string
	i        int
	parts    []shellPart
	cur      shellPart
	word     strings.Builder
	inWord   bool
	pending  string   // redirection operator awaiting its target word
	heredocs []string // delimiters whose bodies start at the next newline
}

var errUnbalanced = errors.New("unbalanced quotes or parentheses")

// splitCommand returns every simple command in s, nested ones included.
func splitCommand(s string) ([]shellPart, error) {
	lx := &shellLexer{s: s}
	if err := lx.list(0); err != nil {
		return nil, err
	}
	return finishParts(lx.parts)
}

func (lx *shellLexer) list(depth int) error {
	for lx.i < len(lx.s) {
		done, err := lx.step(depth)
		if err != nil || done {
			return err
		}
	}
	if depth > 0 {
		return errUnbalanced
	}
	lx.endPart("")
	return nil
}

// step consumes one token; done is true at the ) closing this depth.
func (lx *shellLexer) step(depth int) (done bool, err error) {
	s, c := lx.s, lx.s[lx.i]
	next := byte(0)
	if lx.i+1 < len(s) {
		next = s[lx.i+1]
	}
	switch {
	case c == '\\':
		if next != '\n' && next != 0 {
			lx.add(string(next))
		}
		lx.i += 2
	case c == '\'':
		j := strings.IndexByte(s[lx.i+1:], '\'')
		if j < 0 {
			return false, errUnbalanced
		}
		lx.add(s[lx.i+1 : lx.i+1+j])
		lx.i += j + 2
	case c == '"':
		return false, lx.doubleQuote()
	case c == '`':
		return false, lx.backtick()
	case c == '$' && strings.HasPrefix(s[lx.i:], "$(("):
		return false, lx.arithmetic()
	case c == '$' && next == '(' || (c == '<' || c == '>') && next == '(':
		return false, lx.subst()
	case c == '$' && next == '{':
		return false, lx.braces()
	case c == '(' && !lx.inWord:
		return false, lx.subshell()
	case c == ')':
		if depth == 0 {
			return false, errUnbalanced
		}
		lx.endPart("")
		lx.i++
		return true, nil
	case c == '#' && !lx.inWord:
		for lx.i < len(s) && s[lx.i] != '\n' {
			lx.i++
		}
	case c == ' ' || c == '\t':
		lx.endWord()
		lx.i++
	case c == '\n':
		lx.endPart(";")
		lx.i++
		lx.skipHeredocs()
	default:
		lx.operator(c, next)
	}
	return false, nil
}

// operator handles ; & | > < and ordinary characters.
func (lx *shellLexer) operator(c, next byte) {
	s := lx.s
	switch {
	case c == ';':
		lx.endPart(";")
		lx.i++
	case c == '&' && next == '&', c == '|' && next == '|':
		lx.endPart("&&")
		lx.i += 2
	case c == '|':
		lx.endPart("|")
		lx.i++
		if next == '&' {
			lx.i++
		}
	case c == '&' && next == '>':
		lx.endWord()
		lx.i += 2
		if lx.i < len(s) && s[lx.i] == '>' {
			lx.i++
		}
		lx.pending = ">"
	case c == '&':
		lx.endPart("&")
		lx.i++
	case c == '>' || c == '<':
		lx.redirect()
	default:
		lx.add(string(c))
		lx.i++
	}
}

// redirect reads a redirection operator; its target is the next word.
func (lx *shellLexer) redirect() {
	if lx.inWord && strings.Trim(lx.word.String(), "0123456789") == "" {
		lx.word.Reset() // "2>": the digits name a descriptor, not a word
		lx.inWord = false
	}
	lx.endWord()
	start := lx.i
	for lx.i < len(lx.s) && strings.IndexByte("<>&|", lx.s[lx.i]) >= 0 {
		lx.i++
	}
	op := lx.s[start:lx.i]
	switch {
	case op == "<<" || op == "<<-":
		lx.pending = "<<"
	case strings.HasPrefix(op, "<"), strings.HasSuffix(op, "&"):
		lx.pending = "<" // input, or a descriptor copy like >&2: not a file write
	default:
		lx.pending = ">"
	}
}

func (lx *shellLexer) add(s string) {
	lx.word.WriteString(s)
	lx.inWord = true
}

func (lx *shellLexer) endWord() {
	if !lx.inWord {
		return
	}
	w := lx.word.String()
	lx.word.Reset()
	lx.inWord = false
	switch lx.pending {
	case ">":
		lx.cur.redirects = append(lx.cur.redirects, w)
	case "<<":
		lx.heredocs = append(lx.heredocs, strings.Trim(w, `"'-`))
	case "<":
	default:
		lx.cur.words = append(lx.cur.words, w)
	}
	lx.pending = ""
}

// endPart closes the current simple command; op is the operator after it.
func (lx *shellLexer) endPart(op string) {
	lx.endWord()
	if len(lx.cur.words) > 0 || len(lx.cur.redirects) > 0 {
		lx.parts = append(lx.parts, lx.cur)
	}
	lx.cur = shellPart{piped: op == "|"}
}
