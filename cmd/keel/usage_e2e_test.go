package main

import (
	"strings"
	"testing"
)

// TestUsageErrorsExit2WithASentence runs bad command lines through the
// real binary (issue 18 item 9): each exits 2 with one line on stderr that
// says what is wrong, without Go's or cobra's internals.
func TestUsageErrorsExit2WithASentence(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"log", "export", "--format", "bogus"}, "needs a session id"},
		{[]string{"log", "export", "abc", "--format", "bogus"}, `--format "bogus" is not known`},
		{[]string{"log", "show"}, "keel log show needs a session id"},
		{[]string{"log", "show", "a", "b"}, "takes one session id, got 2"},
		{[]string{"log", "stats", "a", "b"}, "takes at most one session id"},
		{[]string{"log", "search"}, "needs words to search for"},
		{[]string{"log", "search", "x", "--all", "--project", "."}, "--all and --project"},
		{[]string{"log", "--since", "3q"}, `--since "3q" is not an age`},
		{[]string{"log", "prune", "--older-than", "zz"}, `--older-than "zz" is not an age`},
		{[]string{"log", "--limit", "abc"}, `--limit wants a whole number, got "abc"`},
		{[]string{"log", "--limit", "-1"}, "take a number of 0 or more"},
		{[]string{"log", "show", "x", "--round", "1.5"}, `--round wants a whole number, got "1.5"`},
		{[]string{"undo"}, "there is no session in"},
		{[]string{"--reflection-cadence", "abc"}, `--reflection-cadence wants a whole number, got "abc"`},
		{[]string{"--max-tool-calls", "1e3"}, "--max-tool-calls wants a whole number"},
		{[]string{"--reflection-cadence", "-1"}, "0 or more"},
		{[]string{"--yolo=maybe"}, `--yolo wants true or false, got "maybe"`},
		{[]string{"--resume"}, "--resume needs a value"},
		{[]string{"-p"}, "the prompt is empty: pass text to -p"}, // -p alone reads stdin, empty here
		{[]string{"--max-turns", "99999999999999999999"}, "--max-turns is out of range: 99999999999999999999"},
		{[]string{"--nope"}, "unknown flag: --nope; keel --help lists the flags"},
		{[]string{"log", "stats", "--bogus"}, "keel log stats --help lists the flags"},
		{[]string{"--output-format", "xml", "-p", "hi"}, "--output-format must be text, json or stream-json"},
		{[]string{"fix", "the", "bug"}, `keel -p "fix the bug"`},
		{[]string{"config", "bogus"}, `keel config has no command "bogus"`},
		{[]string{"mcp", "bogus"}, `keel mcp has no command "bogus"`},
		{[]string{"log", "bogus"}, `keel log has no command "bogus"`},
		{[]string{"version", "extra"}, "keel version takes no arguments"},
		{[]string{"help", "bogus"}, `keel has no command "bogus" to explain`},
		{[]string{"help", "log", "bogus"}, `keel has no command "log bogus" to explain`},
		{[]string{"completion", "bogus"}, `keel completion has no command "bogus"`},
		{[]string{"trust", "a", "b"}, "keel trust takes at most one argument"},
		{[]string{"eval", "--runs", "x"}, "--runs wants a whole number"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			t.Parallel()
			out, errOut, code := runKeel(t, nil, project(t), "", c.args...)
			if code != exitUsage {
				t.Errorf("exit %d, want 2; stderr %q", code, errOut)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			line := strings.TrimSuffix(errOut, "\n")
			if strings.Contains(line, "\n") || !strings.HasPrefix(line, "keel: ") || !strings.Contains(line, c.want) {
				t.Errorf("stderr %q, want one line with %q", errOut, c.want)
			}
			for _, internal := range []string{"strconv", "arg(s)", "invalid syntax", "%!", "Usage:"} {
				if strings.Contains(line, internal) {
					t.Errorf("stderr %q shows %q", line, internal)
				}
			}
		})
	}
}
