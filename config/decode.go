package config

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	toml "github.com/pelletier/go-toml/v2"
)

// fileDecoder applies one decoded TOML document onto a Config, collecting
// type errors and unknown-key warnings with their positions.
type fileDecoder struct {
	cfg       *Config
	path      string
	untrusted projectTrust // Dir set when the file is an untrusted project's
	pos       positions
	errs      []error
	warnings  []Warning
}

// applyFile overlays the document data, read from path, onto c. A syntax
// error stops at once; type errors are all collected. When untrusted.Dir
// names a project directory, the keys that need trust are ignored with a
// warning.
func applyFile(c *Config, path string, untrusted projectTrust, data []byte) ([]Warning, error) {
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		return nil, syntaxError(path, err)
	}
	d := &fileDecoder{cfg: c, path: path, untrusted: untrusted, pos: keyPositions(data)}
	d.table(nil, doc)
	c.files = append(c.files, path)
	return d.warnings, errors.Join(d.errs...)
}

// syntaxError turns a go-toml error into an Error located in path.
func syntaxError(path string, err error) *Error {
	e := &Error{Path: path, Line: 1, Col: 1, Msg: err.Error()}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		e.Line, e.Col = de.Position()
		e.Key = strings.Join(de.Key(), ".")
	}
	e.Msg = strings.TrimPrefix(e.Msg, "toml: ")
	return e
}

// table walks the top level (prefix nil) or a known section.
func (d *fileDecoder) table(prefix []string, m map[string]any) {
	for _, k := range d.ordered(prefix, m) {
		parts := append(slices.Clip(prefix), k)
		key := strings.Join(parts, ".")
		v := m[k]
		switch {
		case len(prefix) == 0 && k == "providers":
			if sub, ok := d.asTable(parts, v); ok {
				d.providers(sub)
			}
		case len(prefix) == 0 && k == "mcp":
			d.mcp(v) // warns instead of failing: a broken MCP server never stops keel
		case len(prefix) == 0 && k == "hooks":
			d.hooks(v)
		case len(prefix) == 0 && slices.Contains(sections, k):
			if sub, ok := d.asTable(parts, v); ok {
				d.table(parts, sub)
			}
		default:
			f, ok := lookupField(key)
			if !ok {
				d.unknown(parts)
				continue
			}
			if d.refuse(parts, needsTrust(key)) {
				continue
			}
			d.set(parts, f.typ, f.ptr(d.cfg), v)
		}
	}
}

// providers walks [providers]: each entry is a [providers.NAME] table that
// creates a provider or overrides a built-in's fields.
func (d *fileDecoder) providers(m map[string]any) {
	for _, name := range d.ordered([]string{"providers"}, m) {
		parts := []string{"providers", name}
		sub, ok := d.asTable(parts, m[name])
		if !ok {
			continue
		}
		p, exists := d.cfg.Providers[name]
		if !exists {
			p = Provider{Name: name, ContextWindow: DefaultContextWindow}
		}
		d.cfg.sources["providers."+name] = d.source(parts)
		for _, k := range d.ordered(parts, sub) {
			kp := append(slices.Clip(parts), k)
			f, ok := lookupProviderField(k)
			if !ok {
				d.unknown(kp)
				continue
			}
			if d.refuse(kp, providerNeedsTrust(k)) {
				continue
			}
			d.set(kp, f.typ, f.ptr(&p), sub[k])
		}
		d.cfg.Providers[name] = p
	}
}

// asTable checks that v is a table, reporting an error otherwise.
func (d *fileDecoder) asTable(parts []string, v any) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		d.fail(parts, "%s must be a table, not %s", strings.Join(parts, "."), describe(v))
	}
	return m, ok
}

// set converts v to the field's type and stores it with its source.
func (d *fileDecoder) set(parts []string, typ kind, ptr, v any) {
	key := strings.Join(parts, ".")
	val, problem := fromTOML(typ, v)
	if problem != "" {
		d.fail(parts, "%s must be %s", key, problem)
		return
	}
	assign(ptr, val)
	d.cfg.sources[key] = d.source(parts)
}

// source is the file position of a key path.
func (d *fileDecoder) source(parts []string) Source {
	p := d.pos.at(parts)
	return Source{Kind: FromFile, Name: d.path, Line: p.line, Col: p.col}
}

// fail records an error located at the key path.
func (d *fileDecoder) fail(parts []string, format string, args ...any) {
	d.errs = append(d.errs, errorAt(d.source(parts), strings.Join(parts, "."), format, args...))
}

// unknown records a warning for a key keel does not know.
func (d *fileDecoder) unknown(parts []string) {
	p := d.pos.at(parts)
	d.warnings = append(d.warnings, Warning{
		Path: d.path, Line: p.line, Col: p.col,
		Key:        strings.Join(parts, "."),
		Suggestion: suggest(parts),
	})
}

// ordered returns the keys of m in document order, so messages come out in
// the order a reader meets them.
func (d *fileDecoder) ordered(prefix []string, m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	at := func(k string) pos { return d.pos.at(append(slices.Clip(prefix), k)) }
	slices.SortFunc(keys, func(a, b string) int {
		pa, pb := at(a), at(b)
		if pa.line != pb.line {
			return pa.line - pb.line
		}
		if pa.col != pb.col {
			return pa.col - pb.col
		}
		return strings.Compare(a, b)
	})
	return keys
}

// fromTOML converts a decoded TOML value to the Go value of typ. On a
// mismatch it returns the end of a sentence starting "key must be ".
func fromTOML(typ kind, v any) (any, string) {
	switch typ {
	case kindInt:
		if n, ok := v.(int64); ok {
			return int(n), ""
		}
	case kindFloat:
		switch n := v.(type) {
		case float64:
			return n, ""
		case int64:
			return float64(n), ""
		}
	case kindBool:
		if b, ok := v.(bool); ok {
			return b, ""
		}
	case kindString:
		if s, ok := v.(string); ok {
			return s, ""
		}
	case kindDuration:
		if s, ok := v.(string); ok {
			return parseDuration(s)
		}
	case kindStrings:
		return stringList(v)
	}
	return nil, fmt.Sprintf("%s, not %s", expected(typ), describe(v))
}

// parseDuration parses a duration string such as "120s".
func parseDuration(s string) (any, string) {
	dur, err := time.ParseDuration(s)
	if err != nil {
		return nil, fmt.Sprintf("%s, not %q", expected(kindDuration), s)
	}
	return dur, ""
}

// stringList converts a TOML array of strings.
func stringList(v any) (any, string) {
	arr, ok := v.([]any)
	if !ok {
		return nil, fmt.Sprintf("%s, not %s", expected(kindStrings), describe(v))
	}
	var out []string // an empty array is nil, like an unset list
	for i, e := range arr {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Sprintf("%s, but element %d is %s", expected(kindStrings), i+1, describe(e))
		}
		out = append(out, s)
	}
	return out, ""
}

// expected names what a kind accepts.
func expected(typ kind) string {
	switch typ {
	case kindInt:
		return "an integer"
	case kindFloat:
		return "a number"
	case kindBool:
		return "true or false"
	case kindDuration:
		return `a duration such as "120s" or "2m"`
	case kindStrings:
		return "an array of strings"
	}
	return "a string"
}

// describe names the type (and a short form of the value) of a TOML value.
func describe(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("a string (%q)", short(x))
	case bool:
		return fmt.Sprintf("a boolean (%v)", x)
	case int64:
		return fmt.Sprintf("an integer (%d)", x)
	case float64:
		return fmt.Sprintf("a float (%v)", x)
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return "a date or time"
}

// short trims long strings quoted in messages.
func short(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

// assign stores a converted value through a field pointer.
func assign(ptr, val any) {
	switch p := ptr.(type) {
	case *int:
		*p = val.(int)
	case *float64:
		*p = val.(float64)
	case *bool:
		*p = val.(bool)
	case *string:
		*p = val.(string)
	case *time.Duration:
		*p = val.(time.Duration)
	case *[]string:
		*p = val.([]string)
	default:
		panic(fmt.Sprintf("config: no assign for %T", ptr))
	}
}
