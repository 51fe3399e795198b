package config

import (
	"errors"
	"strings"
	"testing"
	"time"
)

const twoHooks = `[[hooks.PreToolUse]]
matcher = "write_file|edit_file"
command = "scripts/check.sh"
timeout = "10s"

[[hooks.Stop]]
type = "command"
command = "make test"
timeout = 30
`

func TestHooksFromTheUserFile(t *testing.T) {
	w := newWorld(t)
	writeFile(t, w.userFile, twoHooks)
	c, warns := w.load(t)
	if len(warns) != 0 {
		t.Errorf("warnings: %v", warns)
	}
	if len(c.Hooks) != 2 {
		t.Fatalf("hooks = %+v", c.Hooks)
	}
	pre, stop := c.Hooks[0], c.Hooks[1]
	if pre.Event != "PreToolUse" || pre.Matcher != "write_file|edit_file" || pre.Command != "scripts/check.sh" || pre.Timeout != 10*time.Second {
		t.Errorf("PreToolUse hook = %+v", pre)
	}
	if stop.Event != "Stop" || stop.Timeout != 30*time.Second || stop.Origin() != w.userFile+":6" {
		t.Errorf("Stop hook = %+v, origin %s", stop, stop.Origin())
	}
}

func TestBadHooksFailWithTheirPosition(t *testing.T) {
	cases := []struct{ toml, want string }{
		{"[hooks]\nPreToolUse = \"x\"\n", "hooks.PreToolUse must be an array of tables"},
		{"[[hooks.Stop]]\ncommand = 3\n", "hooks.Stop[1].command must be a string"},
		{"[[hooks.Stop]]\ncommand = \"true\"\n[[hooks.Stop]]\ntimeout = \"soon\"\ncommand = \"x\"\n", "hooks.Stop[2].timeout must be a positive duration"},
		{"[[hooks.Stop]]\nmatcher = \"x\"\n", "hooks.Stop[1] needs a command"},
		{"[[hooks.Stop]]\ntype = \"prompt\"\ncommand = \"x\"\n", `hooks.Stop[1].type must be "command"`},
	}
	for _, c := range cases {
		w := newWorld(t)
		writeFile(t, w.userFile, c.toml)
		_, _, err := Load(w.opts())
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), w.userFile+":") {
			t.Errorf("%q: %v, want %q at a position", c.toml, err, c.want)
		}
	}
}

func TestAnUntrustedProjectsHooksAreIgnoredWithAWarning(t *testing.T) {
	w := newWorld(t)
	writeFile(t, w.userFile, "[[hooks.SessionStart]]\ncommand = \"echo mine\"\n")
	writeFile(t, w.projectFile, twoHooks)
	c, warns := w.load(t)
	if len(c.Hooks) != 1 || c.Hooks[0].Command != "echo mine" {
		t.Errorf("hooks = %+v, want only the user's", c.Hooks)
	}
	var found int
	for _, wa := range warns {
		if strings.HasPrefix(wa.Key, "hooks.") && strings.Contains(wa.String(), "keel trust") {
			found++
		}
	}
	if found != 2 {
		t.Errorf("warnings = %v, want one per ignored event naming keel trust", warns)
	}
	if !strings.Contains(Render(c), "# [[hooks.PreToolUse]] IGNORED") {
		t.Errorf("keel config does not show the ignored hooks")
	}

	w.trust(t)
	c, warns = w.load(t)
	if len(c.Hooks) != 3 || c.Hooks[0].Command != "echo mine" || c.Hooks[2].Command != "make test" || len(warns) != 0 {
		t.Errorf("trusted: hooks = %+v, warnings %v; want the user's, then the project's", c.Hooks, warns)
	}
}
