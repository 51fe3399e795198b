package tools

import (
	"strings"
	"testing"
)

// An external check: the commands of the Codex CLI's command-safety tests
// (codex-rs/shell-command/src/command_safety/is_safe_command.rs and
// is_dangerous_command.rs, read in November 2026), as a table; their
// code is not used. bash -lc SCRIPT and zsh -lc SCRIPT are written as
// SCRIPT, which is what keel's run_command receives.

// codexDangerous are the commands those tests call dangerous or unsafe
// (they write, delete, run other programs or reach the network): none
// may run without asking.
var codexDangerous = []string{
	// is_dangerous_command.rs
	"rm -rf /", "rm -f /", "/bin/rm -fr /tmp/example", "rm -r -f /tmp/example", "rm --force /tmp/example",
	"rm /tmp/example -f", "sudo rm -rf /tmp/example", "printf x | rm -rf /tmp/example",
	"if test -d /tmp/example; then rm --force /tmp/example; fi", `rm -rf "$TARGET" >/dev/null`,
	`for target in /tmp/a /tmp/b; do rm -r -f "$target"; done`, `echo "$(rm -rf /tmp/example)"`,
	`for a in '-C5a25KeRr' '--' '--json' '--bogus'; do HOME=$(mktemp -d) MDE_URL=http://127.0.0.1:1 MDE_TOKEN=x node cli/mde.cjs ls "$a" >/tmp/mde-review-out 2>/tmp/mde-review-err; code=$?; printf '%s\t%s\t%s\n' "$a" "$code" "$(tr '\n' ' ' </tmp/mde-review-err)"; rm -rf "$HOME"; done`,
	// is_safe_command.rs: the unsafe ones
	"find . -name file.txt -exec rm {} ;", "find . -name *.py -execdir python3 {} ;", "find . -name file.txt -ok rm {} ;",
	"find . -name *.py -okdir python3 {} ;", "find . -delete -name file.txt", "find . -fls /etc/passwd",
	"find . -fprint /etc/passwd", "find . -fprint0 /etc/passwd", `find . -fprintf /root/suid.txt '%#m %u %p\n'`,
	"base64 -o out.bin", "base64 --output out.bin", "base64 --output=out.bin", "base64 -ob64.txt",
	"rg --search-zip files", "rg -z files", "rg --pre pwned files", "rg --pre=pwned files", "rg --hostname-bin pwned files",
	"rg --hostname-bin=pwned files", "cargo check", "foo", "git fetch", "'git status'", "find . -name file.txt -delete",
	"ls && rm -rf /", "ls > out.txt",
}

// codexSafe are the commands those tests call safe.
var codexSafe = []string{
	"ls", "base64", "sed -n 1,5p file.txt", "nl -nrz Cargo.toml", "find . -name file.txt", "numfmt 1000", "tac Cargo.toml",
	"rg Cargo.toml -n", "ls -1", `grep -R "Cargo.toml" -n`, "sed -n '1,5p' file.txt", `grep -R "Cargo.toml" -n || true`,
	"ls && pwd", "echo 'hi' ; ls", "ls | wc -l",
}

func TestCodexCommandSafetyTables(t *testing.T) {
	ws := newTestWS(t, map[string]string{"Cargo.toml": "[package]\n", "file.txt": "x\n", "files": "x\n"})
	p := mustPolicy(t, ws, PolicyOptions{})
	for _, cmd := range codexDangerous {
		if d := p.Decide(NameRunCommand, args(m{"command": cmd})); d.Verdict == Allow {
			t.Errorf("the Codex tests call %q dangerous or unsafe; keel runs it without asking", cmd)
		}
	}
	var asked []string
	for _, cmd := range codexSafe {
		if d := p.Decide(NameRunCommand, args(m{"command": cmd})); d.Verdict != Allow {
			asked = append(asked, cmd+": "+d.Reason)
		}
	}
	t.Logf("of the %d commands the Codex tests call safe, keel runs %d without asking", len(codexSafe), len(codexSafe)-len(asked))
	if len(asked) > 0 {
		t.Errorf("safe by the Codex tests, yet keel asks:\n%s", strings.Join(asked, "\n"))
	}
}
