package tools

import (
	"path/filepath"
	"regexp"
	"strings"
)

// doubleQuote reads "...", where $( ) and backticks still run commands.
func (lx *shellLexer) doubleQuote() error {
	lx.i++
	lx.inWord = true
	for lx.i < len(lx.s) {
		c := lx.s[lx.i]
		next := byte(0)
		if lx.i+1 < len(lx.s) {
			next = lx.s[lx.i+1]
		}
		switch {
		case c == '"':
			lx.i++
			return nil
		case c == '\\' && strings.IndexByte("$`\"\\\n", next) >= 0 && next != 0:
			lx.add(string(next))
			lx.i += 2
		case c == '`':
			if err := lx.backtick(); err != nil {
				return err
			}
		case c == '$' && next == '(':
			if err := lx.subst(); err != nil {
				return err
			}
		case c == '$' && next == '{':
			if err := lx.braces(); err != nil {
				return err
			}
		default:
			lx.add(string(c))
			lx.i++
		}
	}
	return errUnbalanced
}

// subst reads $( ), <( ), >( ) or ( ) starting at lx.i: the commands inside
// become parts, and the raw text stays in the current word.
func (lx *shellLexer) subst() error {
	start := lx.i
	open := strings.IndexByte(lx.s[lx.i:], '(') + lx.i
	sub := &shellLexer{s: lx.s, i: open + 1}
	if err := sub.list(1); err != nil {
		return err
	}
	lx.parts = append(lx.parts, sub.parts...)
	lx.add(lx.s[start:sub.i])
	lx.i = sub.i
	return nil
}

// subshell reads ( ... ): its commands become parts of their own.
func (lx *shellLexer) subshell() error {
	lx.endPart(";")
	sub := &shellLexer{s: lx.s, i: lx.i + 1}
	if err := sub.list(1); err != nil {
		return err
	}
	lx.parts = append(lx.parts, sub.parts...)
	lx.i = sub.i
	return nil
}

// arithmetic reads $(( ... )) into the current word: no commands there.
func (lx *shellLexer) arithmetic() error {
	j := strings.Index(lx.s[lx.i:], "))")
	if j < 0 {
		return errUnbalanced
	}
	lx.add(lx.s[lx.i : lx.i+j+2])
	lx.i += j + 2
	return nil
}

// backtick reads `...` and splits the command inside.
func (lx *shellLexer) backtick() error {
	j := lx.i + 1
	for j < len(lx.s) && lx.s[j] != '`' {
		if lx.s[j] == '\\' {
			j++
		}
		j++
	}
	if j >= len(lx.s) {
		return errUnbalanced
	}
	inner := strings.ReplaceAll(lx.s[lx.i+1:j], "\\`", "`")
	sub := &shellLexer{s: inner}
	if err := sub.list(0); err != nil {
		return err
	}
	lx.parts = append(lx.parts, sub.parts...)
	lx.add(lx.s[lx.i : j+1])
	lx.i = j + 1
	return nil
}

// braces reads ${...} into the current word.
func (lx *shellLexer) braces() error {
	j := strings.IndexByte(lx.s[lx.i:], '}')
	if j < 0 {
		return errUnbalanced
	}
	lx.add(lx.s[lx.i : lx.i+j+1])
	lx.i += j + 1
	return nil
}

// skipHeredocs skips the bodies of here-documents opened on the line just
// ended: they are data, not commands.
func (lx *shellLexer) skipHeredocs() {
	for _, delim := range lx.heredocs {
		for lx.i < len(lx.s) {
			end := strings.IndexByte(lx.s[lx.i:], '\n')
			line := lx.s[lx.i:]
			if end >= 0 {
				line = lx.s[lx.i : lx.i+end]
				lx.i += end + 1
			} else {
				lx.i = len(lx.s)
			}
			if strings.TrimLeft(line, "\t") == delim {
				break
			}
		}
	}
	lx.heredocs = nil
}

var assignRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// shellKeywords start or end compound commands; they are not programs.
var shellKeywords = map[string]bool{"if": true, "then": true, "else": true, "elif": true, "fi": true,
	"do": true, "done": true, "while": true, "until": true, "!": true, "{": true, "}": true, "esac": true}

// finishParts strips keywords and assignments, and replaces `bash -c
// "..."` and `eval ...` by the commands they run.
func finishParts(parts []shellPart) ([]shellPart, error) {
	var out []shellPart
	for _, p := range parts {
		for len(p.words) > 0 && shellKeywords[p.words[0]] {
			p.words = p.words[1:]
		}
		for len(p.words) > 0 && assignRe.MatchString(p.words[0]) {
			p.assigns = append(p.assigns, p.words[0])
			p.words = p.words[1:]
		}
		if len(p.words) > 0 && shellKeywords[p.words[len(p.words)-1]] && p.words[len(p.words)-1] != "!" {
			p.words = p.words[:len(p.words)-1]
		}
		if inner, ok := innerScript(p.words); ok {
			sub, err := splitCommand(inner)
			if err != nil {
				return nil, err
			}
			out = append(out, sub...)
			continue
		}
		if len(p.words) > 0 || len(p.redirects) > 0 {
			out = append(out, p)
		}
	}
	return out, nil
}

var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true}

// innerScript is the script run by `bash -c SCRIPT` or `eval ARGS`.
func innerScript(words []string) (string, bool) {
	w := unwrap(words)
	if len(w) < 2 {
		return "", false
	}
	prog := filepath.Base(w[0])
	if prog == "eval" {
		return strings.Join(w[1:], " "), true
	}
	if !shells[prog] {
		return "", false
	}
	for i, a := range w[1:] {
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "c") && i+2 < len(w) {
			return w[i+2], true
		}
	}
	return "", false
}
