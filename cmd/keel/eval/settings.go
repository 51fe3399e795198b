package eval

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/keel-dev/keel/config"
	"github.com/keel-dev/keel/discipline"
)

// Settings are one side of the comparison: "key=value" pairs separated by
// commas, applied left to right over the user's configuration. Keys are
// config keys — reflection_cadence, max_turns, max_tool_calls,
// token_budget, plan.stall_threshold and every number or true/false key
// of [discipline] (discipline.reread, discipline.repeat_halt,
// discipline.verify, ...) — plus two shorthands:
//
//	guards=off      every [discipline] threshold 0 and switch false
//	guards=on       every [discipline] threshold and switch at its default
//	discipline=off  guards=off and reflection_cadence=0
//	discipline=on   guards=on and reflection_cadence at its default
//
// The empty text means the configuration as it is. Lists such as
// discipline.verify_patterns cannot be set here.
type Settings struct {
	text  string
	items []setting
}

type setting struct{ key, value string }

// ParseSettings parses text; an unknown key or a bad value is an error
// naming it.
func ParseSettings(text string) (Settings, error) {
	s := Settings{text: strings.TrimSpace(text)}
	if s.text == "" {
		return s, nil
	}
	probe := config.Defaults()
	for _, part := range strings.Split(s.text, ",") {
		key, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if !ok || key == "" {
			return Settings{}, fmt.Errorf("%q is not key=value (for example reflection_cadence=10 or guards=off)", strings.TrimSpace(part))
		}
		it := setting{key, value}
		if err := it.apply(probe); err != nil {
			return Settings{}, err
		}
		s.items = append(s.items, it)
	}
	return s, nil
}

// String is the settings as written, or "as configured".
func (s Settings) String() string {
	if s.text == "" {
		return "as configured"
	}
	return s.text
}

// Apply returns a copy of cfg with the settings applied; cfg is unchanged.
func (s Settings) Apply(cfg *config.Config) *config.Config {
	c := *cfg
	for _, it := range s.items {
		_ = it.apply(&c) // checked by ParseSettings
	}
	return &c
}

func (it setting) apply(c *config.Config) error {
	switch it.key {
	case "guards", "discipline":
		on, err := onOff(it)
		if err != nil {
			return err
		}
		setGuards(c, on)
		if it.key == "discipline" {
			c.ReflectionCadence = 0
			if on {
				c.ReflectionCadence = config.Defaults().ReflectionCadence
			}
		}
		return nil
	}
	f, ok := settingField(c, it.key)
	if !ok {
		return fmt.Errorf("unknown setting %q: use reflection_cadence, reflection_structured, max_turns, max_tool_calls, token_budget, plan.stall_threshold, memory.lessons, memory.notes_max, a discipline.* number or switch, guards=on|off or discipline=on|off", it.key)
	}
	return setValue(f, it)
}

func onOff(it setting) (bool, error) {
	switch strings.ToLower(it.value) {
	case "on", "true":
		return true, nil
	case "off", "false":
		return false, nil
	}
	return false, fmt.Errorf("%s must be on or off, not %q", it.key, it.value)
}

// setGuards sets every number and switch of [discipline] to 0 and false,
// or to the defaults. Lists (verify_patterns) stay as configured.
func setGuards(c *config.Config, on bool) {
	for _, s := range discipline.Settings() {
		switch p := c.Discipline.Ptr(s.Key).(type) {
		case *int:
			*p = 0
			if on {
				*p = s.Default().(int)
			}
		case *bool:
			*p = on && s.Default().(bool)
		}
	}
}

// settingField finds the settable number or switch for key in c: a
// *int or a *bool.
func settingField(c *config.Config, key string) (any, bool) {
	if name, ok := strings.CutPrefix(key, "discipline."); ok {
		switch p := c.Discipline.Ptr(name).(type) {
		case *int, *bool:
			return p, true
		}
		return nil, false
	}
	switch key {
	case "reflection_cadence":
		return &c.ReflectionCadence, true
	case "max_turns":
		return &c.MaxTurns, true
	case "max_tool_calls":
		return &c.MaxToolCalls, true
	case "token_budget":
		return &c.TokenBudget, true
	case "plan.stall_threshold":
		return &c.Plan.StallThreshold, true
	case "reflection_structured":
		return &c.ReflectionStructured, true
	case "memory.lessons":
		return &c.Memory.Lessons, true
	case "memory.notes_max":
		return &c.Memory.NotesMax, true
	}
	return nil, false
}

func setValue(f any, it setting) error {
	if b, ok := f.(*bool); ok {
		v, err := strconv.ParseBool(strings.ToLower(it.value))
		if err != nil {
			return fmt.Errorf("%s must be true or false, not %q", it.key, it.value)
		}
		*b = v
		return nil
	}
	n, err := strconv.Atoi(it.value)
	if err != nil || n < 0 {
		return fmt.Errorf("%s must be a whole number of 0 or more, not %q", it.key, it.value)
	}
	*f.(*int) = n
	return nil
}
