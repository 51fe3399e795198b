package shell

import (
	"slices"
	"strings"
)

// opts describes a program's options as getopt_long reads them: the short
// options that take a value and the long ones that do. Other options are
// flags. A long option may be abbreviated (--rec for --recursive).
type opts struct {
	short string
	long  []string
	posix bool // options end at the first operand (xxd), instead of GNU's anywhere
}

// parsed is a call's arguments split into options and operands.
type parsed struct {
	flags    []string          // every option as written before "=": "-r", "--recursive"
	values   map[string][]Word // option -> its values
	operands []Word
	unsure   bool // an argument may be an option when it runs (a variable, a glob)
}

// parse splits args (after the program) GNU style: options may follow
// operands, "--" ends them.
func (o opts) parse(args []Word) parsed {
	p := parsed{values: map[string][]Word{}}
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.Value
		switch {
		case !w.Known() && w.MayBeOption():
			p.unsure = true
			p.operands = append(p.operands, w)
		case !w.Known() || v == "-" || !strings.HasPrefix(v, "-"):
			p.operands = append(p.operands, w)
			if o.posix {
				p.operands = append(p.operands, args[i+1:]...)
				return p
			}
		case v == "--":
			p.operands = append(p.operands, args[i+1:]...)
			return p
		case strings.HasPrefix(v, "--"):
			i += o.longOpt(&p, v, args[i+1:])
		default:
			i += o.shortOpts(&p, v, args[i+1:])
		}
	}
	return p
}

// longOpt records --name[=value]; it returns 1 when the value was the
// next word.
func (o opts) longOpt(p *parsed, v string, next []Word) int {
	name, value, hasValue := strings.Cut(v, "=")
	full := "--" + o.expand(name[2:])
	p.flags = append(p.flags, full)
	switch {
	case hasValue:
		p.values[full] = append(p.values[full], Word{Value: value})
	case slices.Contains(o.long, full[2:]) && takesNext(next):
		p.values[full] = append(p.values[full], next[0])
		return 1
	}
	return 0
}

// takesNext reports whether an option's value may be the next word. A
// word that starts with "-" is read as an option, not a value: where a
// program's option takes its value only attached (git's -M50%), reading
// the next word as its value would hide that option (--output=FILE).
// Where the program does take it as a value, keel sees one more option
// than there is, which can only make it ask.
func takesNext(next []Word) bool {
	return len(next) > 0 && !(next[0].Known() && strings.HasPrefix(next[0].Value, "-") && next[0].Value != "-")
}

// expand turns an unambiguous abbreviation of a valued long option into
// its full name.
func (o opts) expand(name string) string {
	var match string
	for _, l := range o.long {
		if l == name {
			return l
		}
		if strings.HasPrefix(l, name) {
			if match != "" {
				return name
			}
			match = l
		}
	}
	if match != "" {
		return match
	}
	return name
}

// shortOpts records a cluster such as -rn or -n5 or -e PATTERN.
func (o opts) shortOpts(p *parsed, v string, next []Word) int {
	for j := 1; j < len(v); j++ {
		f := "-" + v[j:j+1]
		p.flags = append(p.flags, f)
		if strings.IndexByte(o.short, v[j]) < 0 {
			continue
		}
		if j+1 < len(v) {
			p.values[f] = append(p.values[f], Word{Value: v[j+1:]})
			return 0
		}
		if takesNext(next) {
			p.values[f] = append(p.values[f], next[0])
			return 1
		}
		return 0
	}
	return 0
}

// has reports any of the options, a long one also when abbreviated to at
// least its first two letters (--rec is --recursive).
func (p parsed) has(names ...string) bool {
	for _, f := range p.flags {
		for _, n := range names {
			if f == n || isAbbrev(f, n) {
				return true
			}
		}
	}
	return false
}

// isAbbrev reports f as an abbreviation of the long option n.
func isAbbrev(f, n string) bool {
	return strings.HasPrefix(n, "--") && strings.HasPrefix(f, "--") && len(f) >= 4 && strings.HasPrefix(n, f)
}

// value is the values of any of the options (abbreviations included).
func (p parsed) value(names ...string) []Word {
	var out []Word
	for f, vs := range p.values {
		for _, n := range names {
			if f == n || isAbbrev(f, n) {
				out = append(out, vs...)
			}
		}
	}
	return out
}
