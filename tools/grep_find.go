package tools

import (
	"bytes"
	"math"
)

// finder looks for the first occurrence of any of a few literals. Each
// literal is found by its rarest byte (bytes.IndexByte, SIMD-backed) and
// checked in place; a case-folded letter is looked for in both cases. Every
// byte it looks for keeps a cursor, so one file is scanned once per byte
// however many candidates it holds.
type finder struct {
	needles []needle
	probes  int // cursors a findState needs
}

// needle is one literal and the byte (in one or both cases) it is found by.
type needle struct {
	s      []byte // ASCII lower case when fold
	fold   bool
	off    int     // where the probe byte sits in s
	probe  [2]byte // the byte, and its other case when fold
	nprobe int
	cursor int // this needle's first cursor in a findState
}

// findState is one file's cursors: the next position of each probe byte,
// or -1 when not yet looked for.
type findState []int

func newFinder(lits []lit) *finder {
	f := &finder{}
	for _, l := range lits {
		n := needle{s: []byte(l.s), fold: l.fold, cursor: f.probes}
		for i := 0; i < len(n.s); i++ {
			if byteRank(n.s[i], l.fold) < byteRank(n.s[n.off], l.fold) {
				n.off = i
			}
		}
		n.probe[0], n.nprobe = n.s[n.off], 1
		if o, ok := otherCase(n.s[n.off]); ok && l.fold {
			n.probe[1], n.nprobe = o, 2
		}
		f.needles = append(f.needles, n)
		f.probes += n.nprobe
	}
	return f
}

// reset readies st for a new file.
func (f *finder) reset(st findState) findState {
	if cap(st) < f.probes {
		st = make(findState, f.probes)
	}
	st = st[:f.probes]
	for i := range st {
		st[i] = -1
	}
	return st
}

// next returns the first start of any needle in data at or after from, or
// -1. Calls for one file must not go backwards.
func (f *finder) next(data []byte, from int, st findState) int {
	first := -1
	for i := range f.needles {
		if p := f.needles[i].index(data, from, st); p >= 0 && (first < 0 || p < first) {
			first = p
		}
	}
	return first
}

// index is n's first start in data at or after from, or -1. Its probe
// cursors live in locals while it runs and go back to st when it returns.
func (n *needle) index(data []byte, from int, st findState) int {
	last := len(data) - len(n.s) // the last start that fits
	hi := last + n.off + 1       // probes are looked for before hi
	c0, c1 := st[n.cursor], math.MaxInt
	if n.nprobe == 2 {
		c1 = st[n.cursor+1]
	}
	defer func() {
		st[n.cursor] = c0
		if n.nprobe == 2 {
			st[n.cursor+1] = c1
		}
	}()
	for from <= last {
		lo := from + n.off
		if c0 < lo {
			c0 = probe(data, lo, hi, n.probe[0])
		}
		if c1 < lo {
			c1 = probe(data, lo, hi, n.probe[1])
		}
		at := min(c0, c1)
		if at == math.MaxInt {
			return -1
		}
		start := at - n.off
		if n.matchAt(data[start : start+len(n.s)]) {
			return start
		}
		from = start + 1
	}
	return -1
}

// probe is the first position of b in data[lo:hi], or math.MaxInt.
func probe(data []byte, lo, hi int, b byte) int {
	if i := bytes.IndexByte(data[lo:hi], b); i >= 0 {
		return lo + i
	}
	return math.MaxInt
}

func (n *needle) matchAt(b []byte) bool {
	if !n.fold {
		return bytes.Equal(b, n.s)
	}
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != n.s[i] {
			return false
		}
	}
	return true
}
