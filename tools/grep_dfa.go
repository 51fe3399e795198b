package tools

import (
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// lineDFA answers "does this line match?" for a pattern with no literal to
// look for, one byte at a time: a lazily built DFA over the pattern's
// compiled program (regexp/syntax), whose states are the sets of
// instructions alive after a prefix of the line. Go's regexp runs such
// patterns as an NFA at tens of MB/s; a cached transition is a table
// look-up. Only ^, $, \A and \z are supported as assertions (all mean a
// line's edges here); a pattern with \b or \B gets no DFA. One lineDFA is
// used by one goroutine.
type lineDFA struct {
	prog    *syntax.Prog
	states  map[string]*dstate
	start   *dstate // the state at a line's start
	visit   []bool  // scratch for closure
	flushes int     // times the cache overflowed
}

// dstate is one DFA state. match: a match has ended (the line matches
// whatever follows); blocked holds assertions that may hold at the line's
// end, checked by matchesAtEnd.
type dstate struct {
	pcs     []uint32 // rune-consuming instructions alive
	blocked []uint32 // assertions not satisfied mid-line
	match   bool
	atStart bool
	end     int8         // 0: not computed, 1: matches at the line's end, 2: does not
	ascii   [256]*dstate // by byte; bytes past ASCII are never filled
	other   map[rune]*dstate
}

const (
	maxDFAStates  = 4096 // beyond this the cache is dropped and rebuilt
	maxDFAFlushes = 3    // beyond this the DFA is no faster than the regexp
	flagsStart    = syntax.EmptyBeginLine | syntax.EmptyBeginText
	flagsEnd      = syntax.EmptyEndLine | syntax.EmptyEndText
)

// newLineDFA compiles expr, or returns nil when a DFA cannot run it.
func newLineDFA(expr string) *lineDFA {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil
	}
	for _, in := range prog.Inst {
		if in.Op == syntax.InstEmptyWidth && syntax.EmptyOp(in.Arg)&(syntax.EmptyWordBoundary|syntax.EmptyNoWordBoundary) != 0 {
			return nil
		}
	}
	return &lineDFA{prog: prog, visit: make([]bool, len(prog.Inst)), states: map[string]*dstate{}}
}

// begin is the state at a line's start.
func (d *lineDFA) begin() *dstate {
	if d.start == nil {
		d.start = d.state([]uint32{uint32(d.prog.Start)}, flagsStart, true)
	}
	return d.start
}

// state interns the closure of pcs (plus, mid-line, a fresh start). When
// the cache is full it starts over: states in use stay valid, the old
// ones are dropped once no line runs through them.
func (d *lineDFA) state(pcs []uint32, flags syntax.EmptyOp, atStart bool) *dstate {
	s := &dstate{atStart: atStart}
	clear(d.visit)
	for _, pc := range pcs {
		d.closure(s, pc, flags)
	}
	if !atStart {
		d.closure(s, uint32(d.prog.Start), 0)
	}
	slices.Sort(s.pcs)
	slices.Sort(s.blocked)
	key := stateKey(s)
	if old, ok := d.states[key]; ok {
		return old
	}
	if len(d.states) >= maxDFAStates {
		d.states, d.start = map[string]*dstate{}, nil
		d.flushes++
	}
	d.states[key] = s
	return s
}

func stateKey(s *dstate) string {
	var b strings.Builder
	if s.atStart {
		b.WriteByte('^')
	}
	if s.match {
		b.WriteByte('M')
	}
	for _, pc := range s.pcs {
		b.WriteString(strconv.Itoa(int(pc)))
		b.WriteByte(',')
	}
	b.WriteByte('|')
	for _, pc := range s.blocked {
		b.WriteString(strconv.Itoa(int(pc)))
		b.WriteByte(',')
	}
	return b.String()
}

// closure adds what pc leads to without consuming a rune.
func (d *lineDFA) closure(s *dstate, pc uint32, flags syntax.EmptyOp) {
	if d.visit[pc] {
		return
	}
	d.visit[pc] = true
	in := &d.prog.Inst[pc]
	switch in.Op {
	case syntax.InstAlt, syntax.InstAltMatch:
		d.closure(s, in.Out, flags)
		d.closure(s, in.Arg, flags)
	case syntax.InstCapture, syntax.InstNop:
		d.closure(s, in.Out, flags)
	case syntax.InstEmptyWidth:
		if syntax.EmptyOp(in.Arg)&^flags == 0 {
			d.closure(s, in.Out, flags)
		} else {
			s.blocked = append(s.blocked, pc)
		}
	case syntax.InstMatch:
		s.match = true
	case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
		s.pcs = append(s.pcs, pc)
	}
}

// next is the state after s reads r. A state that has matched stays
// matched: the line matches whatever follows.
func (d *lineDFA) next(s *dstate, r rune) *dstate {
	if s.match {
		if r < utf8.RuneSelf {
			s.ascii[r] = s
		}
		return s
	}
	if r < utf8.RuneSelf {
		if n := s.ascii[r]; n != nil {
			return n
		}
	} else if n, ok := s.other[r]; ok {
		return n
	}
	var outs []uint32
	for _, pc := range s.pcs {
		if in := &d.prog.Inst[pc]; matchesRune(in, r) {
			outs = append(outs, in.Out)
		}
	}
	n := d.state(outs, 0, false)
	if r < utf8.RuneSelf {
		s.ascii[r] = n
	} else {
		if s.other == nil {
			s.other = map[rune]*dstate{}
		}
		s.other[r] = n
	}
	return n
}

// thrashing reports whether the pattern needs more states than the
// cache holds, so often that building them costs more than it saves
// (RE2 falls back to its NFA the same way).
func (d *lineDFA) thrashing() bool { return d.flushes >= maxDFAFlushes }

func matchesRune(in *syntax.Inst, r rune) bool {
	switch in.Op {
	case syntax.InstRune:
		return in.MatchRune(r)
	case syntax.InstRune1:
		return r == in.Rune[0]
	case syntax.InstRuneAny:
		return true
	}
	return r != '\n' // InstRuneAnyNotNL
}

// matchesAtEnd reports whether s matches once the line ends there.
func (d *lineDFA) matchesAtEnd(s *dstate) bool {
	if s.match {
		return true
	}
	if s.end == 0 {
		flags := flagsEnd
		if s.atStart {
			flags |= flagsStart
		}
		end := &dstate{}
		clear(d.visit)
		for _, pc := range s.blocked {
			if in := &d.prog.Inst[pc]; syntax.EmptyOp(in.Arg)&^flags == 0 {
				d.closure(end, in.Out, flags)
			}
		}
		s.end = 2
		if end.match {
			s.end = 1
		}
	}
	return s.end == 1
}

// matchLine reports whether line (without its newline) matches. The
// loop follows cached transitions by byte; a byte without one (not cached
// yet, or past ASCII) goes through next.
func (d *lineDFA) matchLine(line []byte) bool {
	s := d.begin()
	for i := 0; i < len(line); {
		if n := s.ascii[line[i]]; n != nil {
			s = n
			i++
			continue
		}
		r, size := rune(line[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(line[i:])
		}
		s = d.next(s, r)
		i += size
	}
	return d.matchesAtEnd(s)
}
