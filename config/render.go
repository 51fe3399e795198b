package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Render prints the effective configuration as TOML, each value followed by
// a comment saying where it came from. API keys are shown as "***".
func Render(c *Config) string {
	var b strings.Builder
	b.WriteString("# keel configuration in effect\n")
	if len(c.files) == 0 {
		b.WriteString("# no configuration file was read\n")
	}
	for _, f := range c.files {
		fmt.Fprintf(&b, "# read %s\n", f)
	}
	switch t := c.untrusted; {
	case t.Changed:
		fmt.Fprintf(&b, "# %s: it may not set %s until you review it and run \"keel trust\" again\n",
			commentSafe(t.reason()), strings.Join(TrustedKeys(), ", "))
	case t.Dir != "":
		fmt.Fprintf(&b, "# %s is not trusted: its .keel/config.toml may not set %s (run \"keel trust\" to trust it)\n",
			commentSafe(t.Dir), strings.Join(TrustedKeys(), ", "))
	}
	section := ""
	for _, f := range allFields() {
		if s, _, ok := strings.Cut(f.key, "."); ok && s != section {
			section = s
			fmt.Fprintf(&b, "\n[%s]\n", s)
		}
		name := f.key[strings.LastIndexByte(f.key, '.')+1:]
		src := c.sourceNote(f.key)
		if f.key == "datalog.path" && c.Datalog.Path == "" {
			src += ", which means " + c.DatalogPath()
		}
		writeLine(&b, name, formatValue(f.ptr(c)), src)
	}
	for _, name := range c.ProviderNames() {
		p := c.Providers[name]
		fmt.Fprintf(&b, "\n[providers.%s]\n", tomlKey(name))
		for _, f := range providerFields {
			v := formatValue(f.ptr(&p))
			if f.key == "api_key" && p.APIKey != "" {
				v = `"***"`
			}
			writeLine(&b, f.key, v, c.sourceNote(providerKey(name, f.key))+c.listPriceNote(name, f.key))
		}
	}
	renderMCP(&b, c)
	renderHooks(&b, c)
	return b.String()
}

// sourceNote is the comment after a key's value: its source, and the
// untrusted project setting Load ignored, if any.
func (c *Config) sourceNote(key string) string {
	src := c.Source(key).String()
	if ig, ok := c.ignored[key]; ok {
		why := "project not trusted"
		if c.untrusted.Changed {
			why = "changed since trusted"
		}
		src += "; IGNORED " + ig.String() + " (" + why + ")"
	}
	return src
}

// writeLine writes `key = value  # source`.
func writeLine(b *strings.Builder, key, value, src string) {
	fmt.Fprintf(b, "%s = %s  # %s\n", key, value, commentSafe(src))
}

// commentSafe keeps a comment on one line whatever the file path holds.
func commentSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}

// formatValue writes a field's value as a TOML literal.
func formatValue(ptr any) string {
	switch v := ptr.(type) {
	case *int:
		return strconv.Itoa(*v)
	case *float64:
		return formatFloat(*v)
	case *bool:
		return strconv.FormatBool(*v)
	case *string:
		return tomlString(*v)
	case *time.Duration:
		return tomlString(formatDuration(*v))
	case *[]string:
		items := make([]string, len(*v))
		for i, s := range *v {
			items[i] = tomlString(s)
		}
		return "[" + strings.Join(items, ", ") + "]"
	}
	panic(fmt.Sprintf("config: cannot format %T", ptr))
}

// formatFloat writes a float so that TOML reads it back as a float.
func formatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}

// formatDuration prefers whole seconds ("120s") to Go's "2m0s".
func formatDuration(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return d.String()
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// tomlKey writes a table key bare when TOML allows it, else quoted.
func tomlKey(k string) string {
	if k == "" {
		return `""`
	}
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return tomlString(k)
		}
	}
	return k
}
