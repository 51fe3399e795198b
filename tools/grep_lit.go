package tools

import (
	"regexp/syntax"
	"slices"
	"unicode"
	"unicode/utf8"
)

// Literal extraction: from a pattern's syntax tree, a set of literals of
// which every match must contain one. The Go engine looks for them with
// bytes.IndexByte before it runs the regexp, and only on the lines they
// occur in; most files hold none and are rejected without a regexp.

// lit is one literal. fold: s is ASCII lower case and compared ignoring
// ASCII case (a weakening when it came from mixed-case pieces).
type lit struct {
	s    string
	fold bool
}

// litInfo is what is known of the strings a sub-pattern matches.
type litInfo struct {
	exact []lit   // the sub-pattern matches exactly one of these; nil: unknown
	pure  bool    // exact is precise: no assertion dropped, no case weakened
	req   []lit   // every match contains one of these; nil: nothing known
	also  [][]lit // more requirements like req (of a concatenation's parts)
}

const maxLitSet = 16 // the most alternatives a set may hold

var emptyInfo = litInfo{exact: []lit{{}}, pure: true}

// required returns the literals one of which every match of pattern
// (parsed as regexp.Compile parses it) contains, and whether a line that
// contains one is certainly a match. nil means no usable literal. also are
// further such sets (up to maxAlso, from other parts of the pattern): a
// line that lacks all of one set's literals cannot match either.
func required(pattern string) (lits []lit, pure bool, also [][]lit) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, false, nil
	}
	info := analyze(re.Simplify())
	if info.exact != nil && usable(info.exact) {
		return info.exact, info.pure, nil
	}
	if !usable(info.req) {
		return nil, false, nil
	}
	for _, set := range info.also {
		if len(also) < maxAlso && usable(set) {
			also = append(also, set)
		}
	}
	return info.req, false, also
}

const maxAlso = 3

// usable reports whether set can reject text: non-empty, no empty literal.
func usable(set []lit) bool {
	if len(set) == 0 {
		return false
	}
	for _, l := range set {
		if l.s == "" {
			return false
		}
	}
	return true
}

// analyze computes the litInfo of re.
func analyze(re *syntax.Regexp) litInfo {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return emptyInfo
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return litInfo{exact: []lit{{}}} // matches "", under a condition
	case syntax.OpLiteral:
		return literalInfo(re.Rune, re.Flags&syntax.FoldCase != 0)
	case syntax.OpCharClass:
		return classInfo(re.Rune)
	case syntax.OpCapture:
		return analyze(re.Sub[0])
	case syntax.OpQuest:
		sub := analyze(re.Sub[0])
		if sub.exact != nil && len(sub.exact) < maxLitSet {
			return litInfo{exact: append([]lit{{}}, sub.exact...), pure: sub.pure}
		}
		return litInfo{}
	case syntax.OpPlus:
		return litInfo{req: best(analyze(re.Sub[0]))}
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return litInfo{req: best(analyze(re.Sub[0]))}
		}
		return litInfo{}
	case syntax.OpConcat:
		infos := make([]litInfo, len(re.Sub))
		for i, s := range re.Sub {
			infos[i] = analyze(s)
		}
		return concatInfo(infos)
	case syntax.OpAlternate:
		return alternateInfo(re.Sub)
	}
	return litInfo{} // any character, star, no match: nothing known
}

// literalInfo is a literal's info, one rune at a time. A rune whose match
// bytes.Index cannot find breaks the literal: U+FFFD (it also matches
// invalid UTF-8) and a newline (never inside a line). A case-folded rune
// whose fold orbit leaves ASCII (k also matches U+212A KELVIN SIGN) is the
// set of the orbit's runes.
func literalInfo(runes []rune, fold bool) litInfo {
	infos := make([]litInfo, len(runes))
	for i, r := range runes {
		infos[i] = runeInfo(r, fold)
	}
	return concatInfo(infos)
}

func runeInfo(r rune, fold bool) litInfo {
	if r == utf8.RuneError || r == '\n' {
		return litInfo{}
	}
	if !fold || unicode.SimpleFold(r) == r {
		return litInfo{exact: []lit{{s: string(r)}}, pure: true}
	}
	if r < utf8.RuneSelf && asciiOrbit(r) {
		return litInfo{exact: []lit{{s: string(unicode.ToLower(r)), fold: true}}, pure: true}
	}
	set := []lit{{s: string(r)}}
	for f := unicode.SimpleFold(r); f != r && len(set) < 4; f = unicode.SimpleFold(f) {
		set = append(set, lit{s: string(f)})
	}
	return litInfo{exact: set, pure: true}
}

// asciiOrbit reports whether every rune case-folding to r is ASCII.
func asciiOrbit(r rune) bool {
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// classInfo is a character class's info: its runes when few.
func classInfo(ranges []rune) litInfo {
	var runes []rune
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if hi-lo >= maxLitSet || len(runes)+int(hi-lo)+1 > 4 {
			return litInfo{}
		}
		for r := lo; r <= hi; r++ {
			if r == utf8.RuneError || r == '\n' {
				return litInfo{}
			}
			runes = append(runes, r)
		}
	}
	if len(runes) == 2 && runes[0] < utf8.RuneSelf && unicode.ToLower(runes[0]) == unicode.ToLower(runes[1]) &&
		runes[0] != runes[1] && asciiOrbit(runes[0]) {
		return litInfo{exact: []lit{{s: string(unicode.ToLower(runes[0])), fold: true}}, pure: true}
	}
	set := make([]lit, len(runes))
	for i, r := range runes {
		set[i] = lit{s: string(r)}
	}
	return litInfo{exact: set, pure: true}
}

// concatInfo combines a sequence: a run of exact pieces is multiplied out
// while small; every broken-off run or inexact piece is a requirement: the
// best is req, the others also.
func concatInfo(infos []litInfo) litInfo {
	run, runPure, broken := []lit{{}}, true, false
	var sets [][]lit
	for _, in := range infos {
		if in.exact != nil && len(run)*len(in.exact) <= maxLitSet {
			run, runPure = cross(run, in.exact, runPure && in.pure)
			continue
		}
		sets, broken = append(sets, run), true
		if in.exact != nil {
			run, runPure = in.exact, in.pure
			continue
		}
		sets, run, runPure = append(append(sets, in.req), in.also...), []lit{{}}, true
	}
	if !broken {
		return litInfo{exact: run, pure: runPure}
	}
	sets = slices.DeleteFunc(append(sets, run), func(set []lit) bool { return !usable(set) })
	if len(sets) == 0 {
		return litInfo{}
	}
	slices.SortStableFunc(sets, func(a, b []lit) int { return setScore(b) - setScore(a) })
	return litInfo{req: sets[0], also: sets[1:]}
}

// cross is every a followed by every b. A folded piece folds the whole
// literal; that stays pure only when the other piece has no ASCII letter.
func cross(a, b []lit, pure bool) ([]lit, bool) {
	out := make([]lit, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			l := lit{s: x.s + y.s, fold: x.fold || y.fold}
			if x.fold != y.fold {
				plain := x.s
				if x.fold {
					plain = y.s
				}
				pure = pure && !hasASCIILetter(plain)
				l.s = asciiLower(l.s)
			}
			if !slices.Contains(out, l) {
				out = append(out, l)
			}
		}
	}
	return out, pure
}

// alternateInfo unions the alternatives: exact when all are, else the
// union of each one's best requirement (nothing when one has none).
func alternateInfo(subs []*syntax.Regexp) litInfo {
	var exact, req []lit
	pure, allExact, reqOK := true, true, true
	for _, s := range subs {
		in := analyze(s)
		if in.exact == nil || len(exact)+len(in.exact) > maxLitSet {
			allExact = false
		} else {
			exact, pure = append(exact, in.exact...), pure && in.pure
		}
		b := best(in)
		reqOK = reqOK && usable(b) && len(req)+len(b) <= maxLitSet
		if reqOK {
			req = append(req, b...)
		}
	}
	if allExact {
		return litInfo{exact: exact, pure: pure}
	}
	if !reqOK {
		return litInfo{}
	}
	return litInfo{req: req}
}

func hasASCIILetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c >= 'a' && c <= 'z' {
			return true
		}
	}
	return false
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
