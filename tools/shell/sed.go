package shell

import "strings"

// sedScripts are the scripts of a sed call: -e values, else the first
// operand.
func sedScripts(p parsed) []Word {
	if s := p.value("-e", "--expression"); len(s) > 0 {
		return s
	}
	if len(p.operands) > 0 {
		return p.operands[:1]
	}
	return nil
}

// sedFiles are the files sed reads: the operands after the script.
func sedFiles(p parsed) []Word {
	if len(p.value("-e", "--expression")) > 0 {
		return p.operands
	}
	if len(p.operands) > 0 {
		return p.operands[1:]
	}
	return nil
}

// sedReadOnly: sed only prints when every script is made of commands that
// print, and no s/// has the w (write) or e (execute) flag; --sandbox
// makes sed itself refuse those.
func sedReadOnly(_ []Word, p parsed) bool {
	if p.has("--sandbox") {
		return true
	}
	scripts := sedScripts(p)
	if len(scripts) == 0 {
		return false
	}
	for _, s := range scripts {
		if !s.Known() || !sedSafe(s.Value) {
			return false
		}
	}
	return true
}

// sedSafe parses a sed script far enough to know it neither writes (w, W,
// s///w), reads other files (r, R), nor runs commands (e, s///e).
func sedSafe(s string) bool {
	sp := &sedParser{s: s}
	for {
		sp.skip(" \t\n;")
		if sp.i >= len(s) {
			return true
		}
		if !sp.address() || !sp.command() {
			return false
		}
	}
}

type sedParser struct {
	s string
	i int
}

func (p *sedParser) skip(set string) {
	for p.i < len(p.s) && strings.IndexByte(set, p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *sedParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

// address reads [addr[,addr]][!].
func (p *sedParser) address() bool {
	if !p.oneAddress() {
		return false
	}
	if p.peek() == ',' {
		p.i++
		if c := p.peek(); c == '+' || c == '~' {
			p.i++
		}
		if !p.oneAddress() {
			return false
		}
	}
	p.skip(" \t")
	if p.peek() == '!' {
		p.i++
		p.skip(" \t")
	}
	return true
}

// oneAddress reads a line number, $, N~M, /regex/ or \cregexc (with I
// or M flags); an absent address is fine.
func (p *sedParser) oneAddress() bool {
	switch c := p.peek(); {
	case c >= '0' && c <= '9':
		p.skip("0123456789~")
	case c == '$':
		p.i++
	case c == '/' || c == '\\':
		if c == '\\' {
			p.i++
		}
		if !p.delimited(true) {
			return false
		}
		p.skip("IM")
	}
	return true
}

// command reads one command and its arguments.
func (p *sedParser) command() bool {
	c := p.peek()
	p.i++
	switch {
	case strings.IndexByte("pP=ldDnNgGhHxzF{}", c) >= 0:
		return true
	case c == 'q' || c == 'Q':
		p.skip(" \t")
		p.skip("0123456789")
		return true
	case c == 'b' || c == 't' || c == 'T' || c == ':':
		for p.i < len(p.s) && p.s[p.i] != ';' && p.s[p.i] != '\n' {
			p.i++
		}
		return true
	case c == 's':
		return p.substitute()
	case c == 'y':
		return p.delimited(false) && p.rest(false)
	}
	return false // w W r R e a i c v and anything unknown
}

// substitute reads s/regex/replacement/flags; the w and e flags write and
// execute.
func (p *sedParser) substitute() bool {
	if !p.delimited(true) || !p.rest(false) {
		return false
	}
	for p.i < len(p.s) && strings.IndexByte(" \t\n;}", p.s[p.i]) < 0 {
		if strings.IndexByte("gpiImM0123456789", p.s[p.i]) < 0 {
			return false
		}
		p.i++
	}
	return true
}

// delimited reads a delimiter and a part up to its unescaped repeat; in a
// regex, a delimiter inside a bracket expression is literal.
func (p *sedParser) delimited(regex bool) bool {
	if p.i >= len(p.s) || p.s[p.i] == '\\' || p.s[p.i] == '\n' {
		return false
	}
	delim := p.s[p.i]
	p.i++
	return p.until(delim, regex)
}

// rest reads a further part ending at the same delimiter as the part
// just read.
func (p *sedParser) rest(regex bool) bool {
	return p.until(p.s[p.i-1], regex)
}

// until reads up to the unescaped delim; it reports false when there is
// none.
func (p *sedParser) until(delim byte, regex bool) bool {
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '\\':
			p.i += 2
			continue
		case c == '[' && regex:
			p.bracket()
			continue
		case c == delim:
			p.i++
			return true
		}
		p.i++
	}
	return false
}

// bracket skips a bracket expression: [^]…], with [:class:] inside.
func (p *sedParser) bracket() {
	p.i++
	if p.peek() == '^' {
		p.i++
	}
	if p.peek() == ']' {
		p.i++
	}
	for p.i < len(p.s) && p.s[p.i] != ']' {
		if p.s[p.i] == '[' && p.i+1 < len(p.s) && strings.IndexByte(":.=", p.s[p.i+1]) >= 0 {
			end := strings.Index(p.s[p.i+2:], string(p.s[p.i+1])+"]")
			if end >= 0 {
				p.i += end + 4
				continue
			}
		}
		p.i++
	}
	p.i++
}
