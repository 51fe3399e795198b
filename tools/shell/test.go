package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// testExpr checks [[ … ]]. Its words are expanded like arguments; the
// arithmetic comparisons (-eq, -lt, …) evaluate their operands as
// arithmetic, which runs commands hidden in a variable's value, so they
// need literal numbers.
func (a *analyser) testExpr(x syntax.TestExpr) {
	switch e := x.(type) {
	case *syntax.Word:
		a.word(e)
	case *syntax.UnaryTest:
		if e.Op == syntax.TsVarSet || e.Op == syntax.TsRefVar {
			a.varName(e.X)
			return
		}
		a.testExpr(e.X)
	case *syntax.ParenTest:
		a.testExpr(e.X)
	case *syntax.BinaryTest:
		if arithmeticTest(e.Op) {
			a.literalNumber(e.X)
			a.literalNumber(e.Y)
			return
		}
		a.testExpr(e.X)
		a.testExpr(e.Y)
	default:
		a.problem("a [[ ]] expression keel does not check", x)
	}
}

func arithmeticTest(op syntax.BinTestOperator) bool {
	switch op {
	case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
		return true
	}
	return false
}

// literalNumber requires an operand of an arithmetic comparison to be a
// number written out.
func (a *analyser) literalNumber(x syntax.TestExpr) {
	w, ok := x.(*syntax.Word)
	if !ok {
		a.problem("an arithmetic comparison keel does not check", x)
		return
	}
	v := a.word(w)
	if !v.Known() || strings.Trim(strings.TrimPrefix(v.Value, "-"), "0123456789") != "" || v.Value == "" {
		a.problem("an arithmetic comparison in [[ ]] evaluates its operands, which can run commands hidden in variables", w)
	}
}

// varName requires the operand of -v and -R to be a plain variable name:
// an array subscript there is arithmetic.
func (a *analyser) varName(x syntax.TestExpr) {
	w, ok := x.(*syntax.Word)
	if ok {
		if v := a.word(w); v.Known() && !strings.ContainsAny(v.Value, "[") {
			return
		}
	}
	a.problem("-v with an array subscript evaluates arithmetic, which can run commands", x)
}
