package shell

import (
	"errors"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxDepth caps nested scripts (bash -c 'bash -c …'); deeper is a Problem.
const maxDepth = 8

// Analyse parses src as bash and reports what it would do. A command bash
// could not parse either is an error in plain words; a command keel does
// not fully understand is a Script with Problems, never an error.
func Analyse(src string) (*Script, error) {
	f, err := parse(src, syntax.LangBash)
	if err != nil {
		return nil, err
	}
	a := newAnalyser(src, &Script{})
	a.file(f)
	return a.script, nil
}

// parse reads src in the given dialect.
func parse(src string, lang syntax.LangVariant) (*syntax.File, error) {
	if strings.IndexByte(src, 0) >= 0 {
		return nil, errors.New("the command contains a NUL byte")
	}
	p := syntax.NewParser(syntax.Variant(lang))
	f, err := p.Parse(strings.NewReader(src), "")
	if err != nil {
		return nil, fmt.Errorf("it is not valid shell syntax (%s)", plainParseError(err))
	}
	return f, nil
}

// plainParseError drops the parser's "1:5: " position prefix when the
// command is one line, where it adds nothing.
func plainParseError(err error) string {
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		return fmt.Sprintf("line %d, column %d: %s", pe.Pos.Line(), pe.Pos.Col(), pe.Text)
	}
	return err.Error()
}
