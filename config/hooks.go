package config

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Hook is one [[hooks.EVENT]] entry: a command keel runs at EVENT
// (PreToolUse, Stop, ...; package agent/hooks knows them and checks the
// names and matchers). Hooks add up across files: the user's run, then
// a trusted project's.
type Hook struct {
	Event   string
	Matcher string
	Command string
	Timeout time.Duration // 0: the hooks package's default
	Source  Source        // where the entry is
}

// Origin is where the hook was configured, "file:line", for messages.
func (h Hook) Origin() string {
	if h.Source.Name == "" {
		return "[[hooks." + h.Event + "]]"
	}
	return fmt.Sprintf("%s:%d", h.Source.Name, h.Source.Line)
}

// hooks walks [hooks]: each key is an event holding an array of tables.
// An untrusted project's hooks are ignored with a warning: a hook is a
// command keel runs.
func (d *fileDecoder) hooks(v any) {
	m, ok := d.asTable([]string{"hooks"}, v)
	if !ok {
		return
	}
	for _, event := range d.ordered([]string{"hooks"}, m) {
		parts := []string{"hooks", event}
		if d.refuse(parts, true) {
			continue
		}
		entries, ok := m[event].([]any)
		if !ok {
			d.fail(parts, "hooks.%s must be an array of tables ([[hooks.%s]] with matcher, command and timeout), not %s", event, event, describe(m[event]))
			continue
		}
		for i, e := range entries {
			if h, ok := d.hook(parts, i, e); ok {
				d.cfg.Hooks = append(d.cfg.Hooks, h)
			}
		}
	}
}

// hook decodes one entry of an event's array.
func (d *fileDecoder) hook(parts []string, i int, v any) (Hook, bool) {
	name := fmt.Sprintf("%s[%d]", strings.Join(parts, "."), i+1)
	t, ok := v.(map[string]any)
	if !ok {
		d.fail(parts, "%s must be a table with matcher, command and timeout, not %s", name, describe(v))
		return Hook{}, false
	}
	h := Hook{Event: parts[1], Source: d.source(parts)}
	if p, ok := d.pos[arrayEntry(joinKey(parts), i+1)]; ok {
		h.Source.Line, h.Source.Col = p.line, p.col
	}
	good := true
	for _, k := range d.ordered(parts, t) {
		kp := append(parts[:2:2], k)
		var problem string
		switch k {
		case "matcher":
			h.Matcher, problem = hookString(t[k])
		case "command":
			h.Command, problem = hookString(t[k])
		case "timeout":
			h.Timeout, problem = hookTimeout(t[k])
		case "type":
			if s, _ := t[k].(string); s != "command" {
				problem = `"command" (the only type of hook keel runs)`
			}
		default:
			d.unknown(kp)
			continue
		}
		if problem != "" {
			d.fail(kp, "%s.%s must be %s", name, k, problem)
			good = false
		}
	}
	if good && strings.TrimSpace(h.Command) == "" {
		d.fail(parts, "%s needs a command", name)
		good = false
	}
	return h, good
}

func hookString(v any) (string, string) {
	s, ok := v.(string)
	if !ok {
		return "", "a string, not " + describe(v)
	}
	return s, ""
}

// hookTimeout is a duration string ("10s") or, as Claude Code writes it,
// a number of seconds.
func hookTimeout(v any) (time.Duration, string) {
	switch t := v.(type) {
	case int64:
		if t > 0 {
			return time.Duration(t) * time.Second, ""
		}
	case string:
		if d, err := time.ParseDuration(t); err == nil && d > 0 {
			return d, ""
		}
	}
	return 0, `a positive duration such as "10s" (or a number of seconds), not ` + describe(v)
}

// renderHooks writes the hooks for Render, each with where it came from,
// and names the events an untrusted project's hooks were ignored for.
func renderHooks(b *strings.Builder, c *Config) {
	for _, h := range c.Hooks {
		fmt.Fprintf(b, "\n[[hooks.%s]]  # %s\n", tomlKey(h.Event), commentSafe(h.Source.String()))
		if h.Matcher != "" {
			fmt.Fprintf(b, "matcher = %s\n", formatValue(&h.Matcher))
		}
		fmt.Fprintf(b, "command = %s\n", formatValue(&h.Command))
		if h.Timeout > 0 {
			fmt.Fprintf(b, "timeout = %s\n", formatValue(&h.Timeout))
		}
	}
	var ignored []string
	for k := range c.ignored {
		if strings.HasPrefix(k, "hooks.") {
			ignored = append(ignored, k)
		}
	}
	slices.Sort(ignored)
	for _, k := range ignored {
		fmt.Fprintf(b, "\n# [[%s]] IGNORED %s (project not trusted)\n", commentSafe(k), commentSafe(c.ignored[k].String()))
	}
}
