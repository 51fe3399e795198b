package config

import (
	"fmt"
	"strconv"
	"strings"
)

// Override is one command-line flag the user set, by its long name without
// dashes ("reflection-cadence") and its value as text ("3", "true"). Flags
// that are not configuration keys are ignored, so the caller may pass every
// flag that was set (cobra's Flags().Visit).
type Override struct {
	Flag  string
	Value string
}

// flagAliases maps flags whose names differ from their key. Other flags map
// to the top-level key with dashes turned into underscores
// (--max-turns -> max_turns).
var flagAliases = map[string]string{
	"provider":     "default_provider",
	"confirm-plan": "plan.confirm",
	"datalog":      "datalog.path",
}

// FlagKey returns the configuration key a flag sets, if any.
func FlagKey(flag string) (string, bool) {
	if k, ok := flagAliases[flag]; ok {
		return k, true
	}
	k := strings.ReplaceAll(flag, "-", "_")
	if f, ok := lookupField(k); ok && !strings.Contains(f.key, ".") {
		return k, true
	}
	return "", false
}

// envKeys maps environment variables to keys, in the order they apply.
var envKeys = []struct{ env, key string }{
	{"KEEL_PROVIDER", "default_provider"},
	{"KEEL_MODEL", "model"},
	{"KEEL_REFLECTION_CADENCE", "reflection_cadence"},
	{"KEEL_MAX_TURNS", "max_turns"},
	{"KEEL_MAX_TOOL_CALLS", "max_tool_calls"},
	{"KEEL_YOLO", "yolo"},
	{"OPENAI_BASE_URL", "providers.openai.base_url"},
}

// applyEnv overlays the environment; empty variables count as unset.
func applyEnv(c *Config, getenv func(string) string) error {
	for _, e := range envKeys {
		if v := getenv(e.env); v != "" {
			if err := setText(c, e.key, v, Source{Kind: FromEnv, Name: e.env}); err != nil {
				return err
			}
		}
	}
	return nil
}

// applyFlags overlays the flags, ignoring those that set no key.
func applyFlags(c *Config, flags []Override) error {
	for _, o := range flags {
		name := strings.TrimLeft(o.Flag, "-")
		key, ok := FlagKey(name)
		if !ok {
			continue
		}
		if err := setText(c, key, o.Value, Source{Kind: FromFlag, Name: name}); err != nil {
			return err
		}
	}
	return nil
}

// setText parses text for key and stores it with its source.
func setText(c *Config, key, text string, src Source) error {
	if name, pk, ok := splitProviderKey(key); ok {
		f, _ := lookupProviderField(pk)
		p := c.Providers[name]
		if err := storeText(f.typ, f.ptr(&p), text); err != "" {
			return errorAt(src, key, "%s must be %s", key, err)
		}
		c.Providers[name] = p
	} else {
		f, _ := lookupField(key)
		if err := storeText(f.typ, f.ptr(c), text); err != "" {
			return errorAt(src, key, "%s must be %s", key, err)
		}
	}
	c.sources[key] = src
	return nil
}

// splitProviderKey splits "providers.NAME.key".
func splitProviderKey(key string) (name, field string, ok bool) {
	rest, ok := strings.CutPrefix(key, "providers.")
	if !ok {
		return "", "", false
	}
	i := strings.LastIndexByte(rest, '.')
	if i < 0 {
		return "", "", false
	}
	return rest[:i], rest[i+1:], true
}

// storeText parses text as typ into ptr; it returns the end of a sentence
// starting "key must be " when text does not parse.
func storeText(typ kind, ptr any, text string) string {
	var val any
	var err error
	switch typ {
	case kindInt:
		val, err = strconv.Atoi(strings.TrimSpace(text))
	case kindFloat:
		val, err = strconv.ParseFloat(strings.TrimSpace(text), 64)
	case kindBool:
		val, err = parseBool(text)
	case kindDuration:
		v, problem := parseDuration(strings.TrimSpace(text))
		if problem != "" {
			return problem
		}
		val = v
	case kindStrings:
		val = splitList(text)
	default:
		val = text
	}
	if err != nil {
		return fmt.Sprintf("%s, not %q", expected(typ), short(text))
	}
	assign(ptr, val)
	return ""
}

// parseBool accepts the usual spellings of a yes/no setting.
func parseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "t", "true", "yes", "y", "on":
		return true, nil
	case "0", "f", "false", "no", "n", "off":
		return false, nil
	}
	return false, fmt.Errorf("not a boolean: %q", s)
}

// splitList splits "a,b" or pflag's "[a,b]" into its items.
func splitList(s string) []string {
	s = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(s), "["), "]")
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}
