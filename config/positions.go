package config

import (
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// pos is a 1-based line and byte column in a document.
type pos struct{ line, col int }

// positions maps each key path in a document (parts joined by pathSep) to
// the position of its first mention: the last part of the key as written,
// so `discipline.repeet_warn = 3` points at "repeet_warn".
type positions map[string]pos

// pathSep joins key parts; quoted TOML keys may contain dots, NUL is safer.
const pathSep = "\x00"

// joinKey joins key parts into a positions map key.
func joinKey(parts []string) string { return strings.Join(parts, pathSep) }

// keyPositions scans a document that go-toml already decoded without error
// and records where every key is. go-toml's stable API reports positions only
// for syntax errors, so type errors and unknown keys are located here.
func keyPositions(doc []byte) positions {
	ps := positions{}
	p := &unstable.Parser{}
	p.Reset(doc)
	var table []string
	arrays := map[string]int{} // [[array tables]] met so far, by path
	for p.NextExpression() {
		expr := p.Expression()
		switch expr.Kind {
		case unstable.Table:
			table = ps.addKey(p, nil, expr.Key())
		case unstable.ArrayTable:
			table = ps.addKey(p, nil, expr.Key())
			k := joinKey(table)
			arrays[k]++
			if it := expr.Key(); it.Next() {
				ps[arrayEntry(k, arrays[k])] = pos{p.Shape(it.Node().Raw).Start.Line, 1} // each entry's own line
			}
		case unstable.KeyValue:
			ps.addKeyValue(p, table, expr)
		}
	}
	return ps
}

// addKeyValue records a key = value and, for inline tables, their keys.
func (ps positions) addKeyValue(p *unstable.Parser, table []string, kv *unstable.Node) {
	full := ps.addKey(p, table, kv.Key())
	v := kv.Value()
	if v.Kind != unstable.InlineTable {
		return
	}
	it := v.Children()
	for it.Next() {
		if n := it.Node(); n.Kind == unstable.KeyValue {
			ps.addKeyValue(p, full, n)
		}
	}
}

// addKey records every prefix of base+key and returns the full path.
func (ps positions) addKey(p *unstable.Parser, base []string, it unstable.Iterator) []string {
	path := append([]string(nil), base...)
	for it.Next() {
		n := it.Node()
		path = append(path, string(n.Data))
		k := joinKey(path)
		if _, seen := ps[k]; !seen {
			start := p.Shape(n.Raw).Start
			ps[k] = pos{start.Line, start.Column}
		}
	}
	return path
}

// arrayEntry is the positions key of the n-th (1-based) [[table]] of an
// array of tables.
func arrayEntry(key string, n int) string { return key + pathSep + "#" + strconv.Itoa(n) }

// at returns the position of a key path, falling back to its nearest
// recorded parent, then to the start of the document, so an error from a
// file always has a position.
func (ps positions) at(parts []string) pos {
	for i := len(parts); i > 0; i-- {
		if p, ok := ps[joinKey(parts[:i])]; ok {
			return p
		}
	}
	return pos{1, 1}
}
