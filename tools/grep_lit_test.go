package tools

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestRequiredLiterals(t *testing.T) {
	tests := []struct {
		pattern string
		want    []string // "~" marks a case-folded literal
		pure    bool
	}{
		{`hello`, []string{"hello"}, true},
		{`func \w+\(ctx context\.Context`, []string{"(ctx context.Context"}, false},
		{`(?i)errors\.new`, []string{"~errors.new", "~errorſ.new"}, false}, // s also matches U+017F
		{`(?i)kelvin`, []string{"~kelvin", "~\u212aelvin"}, false},         // k also matches U+212A
		{`(?i)\.net`, []string{"~.net"}, true},
		{`TODO|FIXME`, []string{"TODO", "FIXME"}, true},
		{`^package main$`, []string{"package main"}, false},
		{`colou?r`, []string{"color", "colour"}, true},
		{`[Hh]andler`, []string{"~handler"}, false},     // hANDLER is no match
		{`[Hh]andler X`, []string{"~handler x"}, false}, // the folded piece weakens X
		{`\bnil\b`, []string{"nil"}, false},
		{`a+b`, []string{"b"}, false},
		{`(foo|bar)+baz`, []string{"baz"}, false},
		{`x*`, nil, false},
		{`.*`, nil, false},
		{`[0-9]{4}-[0-9]{2}`, []string{"-"}, false},
		{`\w+\s*=`, []string{"="}, false},
		{`a\nb`, []string{"b"}, false}, // a newline never lies inside a line
		{"\ufffd", nil, false},         // U+FFFD also matches invalid UTF-8
		{`café`, []string{"café"}, true},
		{`(?i)café`, []string{"~cafÉ", "~café"}, true},
		{"(?i)\u03a9MEGA", []string{"~\u03a9mega", "~\u03c9mega", "~\u2126mega"}, true}, // Ω, ω, OHM SIGN
		{`a|b.*`, []string{"a", "b"}, false},
		{`a|.*`, nil, false},
		{`(?:ctx|err) != nil`, []string{"ctx != nil", "err != nil"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.pattern, func(t *testing.T) {
			lits, pure, _ := required(tc.pattern)
			var got []string
			for _, l := range lits {
				s := l.s
				if l.fold {
					s = "~" + s
				}
				got = append(got, s)
			}
			if !slices.Equal(got, tc.want) || pure != tc.pure {
				t.Errorf("required(%q) = %q pure=%v, want %q pure=%v", tc.pattern, got, pure, tc.want, tc.pure)
			}
		})
	}
}

func TestFinder(t *testing.T) {
	tests := []struct {
		lits []lit
		data string
		want []int // every start reported, scanning forward
	}{
		{[]lit{{s: "ab"}}, "xxabyyab", []int{2, 6}},
		{[]lit{{s: "ab"}}, "a", nil},
		{[]lit{{s: "abc", fold: true}}, "ABC aBc abx", []int{0, 4}},
		{[]lit{{s: "ab"}, {s: "cd"}}, "cd ab cd", []int{0, 3, 6}},
		{[]lit{{s: "aa"}}, "aaaa", []int{0, 1, 2}},
		{[]lit{{s: "x", fold: true}}, "X x", []int{0, 2}},
		{[]lit{{s: "q"}}, "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.data, func(t *testing.T) {
			f := newFinder(tc.lits)
			st := f.reset(nil)
			var got []int
			for at := 0; ; at++ {
				if at = f.next([]byte(tc.data), at, st); at < 0 {
					break
				}
				got = append(got, at)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("starts %v, want %v", got, tc.want)
			}
		})
	}
}

func TestLineMatcher(t *testing.T) {
	data := "package a\n\nfunc A() {}\r\nfunc B() {}\nno newline func"
	tests := []struct {
		pattern string
		context int
		want    string // num:text of each output line, "-" for context
	}{
		{`func`, 0, "3:func A() {}\r\n|4:func B() {}\n|5:no newline func"},
		{`^func B`, 1, "3-func A() {}\r\n|4:func B() {}\n|5-no newline func"},
		{`^$`, 0, "2:\n"},
		{`\}$`, 0, "4:func B() {}\n"}, // not before \r, as rg
		{`package`, 2, "1:package a\n|2-\n|3-func A() {}\r\n"},
		{`x*`, 0, "1:package a\n|2:\n|3:func A() {}\r\n|4:func B() {}\n|5:no newline func"},
		{`\Afunc|func\z`, 0, "3:func A() {}\r\n|4:func B() {}\n|5:no newline func"},
		{`(?i)NO NEWLINE`, 0, "5:no newline func"},
		{`a\s+func`, 0, ""}, // spans lines: never a line match
	}
	for _, tc := range tests {
		t.Run(tc.pattern, func(t *testing.T) {
			m := newLineMatcher(regexp.MustCompile(tc.pattern))
			var sc matchScratch
			var got []string
			for _, l := range withContext([]byte(data), m.lines([]byte(data), &sc, 100), tc.context) {
				mark := "-"
				if l.match {
					mark = ":"
				}
				got = append(got, strings.Join([]string{strconv.Itoa(l.num), l.text}, mark))
			}
			if s := strings.Join(got, "|"); s != tc.want {
				t.Errorf("got  %q\nwant %q", s, tc.want)
			}
		})
	}
}

func TestRequiredAlso(t *testing.T) {
	tests := []struct {
		pattern string
		want    string // the sets, best first: "a|b" an OR-set, " & " between sets
	}{
		{`func \w+\(ctx context\.Context`, "(ctx context.Context & func "},
		{`[0-9]{4}-[0-9]{2}-[0-9]{2}T`, "- & - & T"},
		{`(?:ab|cd)x+ef`, "ef & ab|cd & x"},
		{`hello`, "hello"}, // exact: nothing more to ask
	}
	for _, tc := range tests {
		t.Run(tc.pattern, func(t *testing.T) {
			lits, _, also := required(tc.pattern)
			var sets []string
			for _, set := range append([][]lit{lits}, also...) {
				var alts []string
				for _, l := range set {
					alts = append(alts, l.s)
				}
				sets = append(sets, strings.Join(alts, "|"))
			}
			if got := strings.Join(sets, " & "); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
