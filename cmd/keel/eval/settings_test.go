package eval_test

import (
	"strings"
	"testing"

	"github.com/keel-dev/keel/cmd/keel/eval"
	"github.com/keel-dev/keel/config"
)

func TestParseSettingsErrors(t *testing.T) {
	tests := []struct{ text, want string }{
		{"cadence=3", `unknown setting "cadence"`},
		{"discipline.nope=1", `unknown setting "discipline.nope"`},
		{"discipline.verify_patterns=go test", `unknown setting "discipline.verify_patterns"`},
		{"providers.openai.model=x", `unknown setting "providers.openai.model"`},
		{"reflection_cadence=-1", `reflection_cadence must be a whole number of 0 or more, not "-1"`},
		{"reflection_cadence=ten", `reflection_cadence must be a whole number of 0 or more, not "ten"`},
		{"discipline.verify=maybe", `discipline.verify must be true or false, not "maybe"`},
		{"guards=1", `guards must be on or off, not "1"`},
		{"reflection_cadence", `"reflection_cadence" is not key=value`},
		{"reflection_cadence=3,,guards=off", `"" is not key=value`},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			_, err := eval.ParseSettings(tt.text)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q…", err, tt.want)
			}
		})
	}
}

// base is a configuration that differs from the defaults everywhere the
// settings reach, so each test sees what changed.
func base() *config.Config {
	c := config.Defaults()
	c.ReflectionCadence = 7
	c.Discipline.Set("repeat_halt", 9)
	c.Discipline.Set("verify", false)
	c.Discipline.Set("verify_patterns", []string{"make check"})
	return c
}

func TestSettingsApply(t *testing.T) {
	def := config.Defaults()
	tests := []struct {
		text  string
		check func(c *config.Config) bool
	}{
		{"", func(c *config.Config) bool { return c.ReflectionCadence == 7 && c.Discipline.Int("repeat_halt") == 9 }},
		{"reflection_cadence=0", func(c *config.Config) bool { return c.ReflectionCadence == 0 && c.Discipline.Int("repeat_halt") == 9 }},
		{" discipline.repeat_halt = 6 , discipline.verify=true", func(c *config.Config) bool {
			return c.Discipline.Int("repeat_halt") == 6 && c.Discipline.Bool("verify")
		}},
		{"max_tool_calls=40,plan.stall_threshold=2", func(c *config.Config) bool { return c.MaxToolCalls == 40 && c.Plan.StallThreshold == 2 }},
		{"guards=off", func(c *config.Config) bool {
			d := c.Discipline
			sum := 0
			for _, k := range []string{"reread", "repeat_warn", "repeat_halt", "error_streak", "error_streak_halt", "stall_calls", "alternation_halt", "monologue_halt"} {
				sum += d.Int(k)
			}
			return sum == 0 && !d.Bool("verify") && !d.Bool("plan_continue") &&
				c.ReflectionCadence == 7 && len(d.List("verify_patterns")) == 1
		}},
		{"guards=on", func(c *config.Config) bool {
			return c.Discipline.Int("repeat_halt") == def.Discipline.Int("repeat_halt") && c.Discipline.Bool("verify") && c.ReflectionCadence == 7 && len(c.Discipline.List("verify_patterns")) == 1
		}},
		{"discipline=off", func(c *config.Config) bool { return c.ReflectionCadence == 0 && c.Discipline.Int("repeat_halt") == 0 }},
		{"discipline=on", func(c *config.Config) bool {
			return c.ReflectionCadence == def.ReflectionCadence && c.Discipline.Int("repeat_halt") == def.Discipline.Int("repeat_halt")
		}},
		{"guards=off,discipline.reread=2", func(c *config.Config) bool {
			return c.Discipline.Int("reread") == 2 && c.Discipline.Int("repeat_halt") == 0
		}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			s := settings(t, tt.text)
			orig := base()
			got := s.Apply(orig)
			if !tt.check(got) {
				t.Errorf("%q applied: cadence %d, discipline %+v, max_tool_calls %d", tt.text, got.ReflectionCadence, got.Discipline, got.MaxToolCalls)
			}
			if orig.ReflectionCadence != 7 || orig.Discipline.Int("repeat_halt") != 9 || orig.Discipline.Bool("verify") {
				t.Errorf("Apply changed the configuration it was given")
			}
		})
	}
	if s := settings(t, ""); s.String() != "as configured" {
		t.Errorf("empty settings read %q", s)
	}
}
