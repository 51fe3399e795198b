package discipline

import (
	"fmt"
	"slices"
	"strings"
)

// observeVerify keeps the files changed since the last passing check. A
// change opens a new batch; a successful verifying command closes it; a
// failing one leaves it open.
func (s *State) observeVerify(c ToolCall, p Policy) {
	for _, path := range c.Changed {
		if skipVerify(path, p.VerifySkipSuffixes) || slices.Contains(s.unverified, path) {
			continue
		}
		s.unverified = appendCopy(s.unverified, path)
		s.verifyNotified = false
	}
	if c.Command == "" || failed(c) {
		return
	}
	if IsVerifying(c.Command, p.VerifyPatterns) {
		s.unverified, s.verifyNotified = nil, false
		return
	}
	// Running an edited script (bash scripts/x.sh, python3 app.py,
	// ./run.sh) and seeing it succeed checks that file.
	s.unverified = slices.DeleteFunc(slices.Clone(s.unverified), func(path string) bool { return runsFile(c.Command, path) })
}

// interpreters run the file named after their options.
var interpreters = map[string]bool{"bash": true, "sh": true, "zsh": true, "dash": true, "python": true, "python3": true,
	"node": true, "ruby": true, "perl": true, "php": true, "bun": true, "deno": true, "Rscript": true, "lua": true, "tclsh": true}

// runsFile reports a part of command that executes path: path itself as
// the program, or as the first operand of an interpreter.
func runsFile(command, path string) bool {
	for _, part := range commandParts(command) {
		words := stripWrappers(strings.Fields(part))
		if len(words) == 0 {
			continue
		}
		if namesFile(words[0], path) {
			return true
		}
		if interpreters[words[0]] {
			for _, w := range words[1:] {
				if w == "run" || strings.HasPrefix(w, "-") {
					continue // deno run, python -u
				}
				if namesFile(w, path) {
					return true
				}
				break
			}
		}
	}
	return false
}

// namesFile reports whether a command word names the absolute path: the
// same path, or its tail after a directory boundary (scripts/x.sh,
// ./x.sh).
func namesFile(word, path string) bool {
	word = strings.TrimPrefix(strings.Trim(word, `"'`), "./")
	return word != "" && (word == path || strings.HasSuffix(path, "/"+word))
}

func skipVerify(path string, suffixes []string) bool {
	lower := strings.ToLower(path)
	for _, sfx := range suffixes {
		if sfx != "" && strings.HasSuffix(lower, strings.ToLower(sfx)) {
			return true
		}
	}
	return false
}

// verify reminds, once per batch of edits, a model that ends its turn
// with changes no check has passed since.
func verify(sum RoundSummary, p Policy, s *State) *Intervention {
	if !p.Verify || !sum.EndedTurn || len(s.unverified) == 0 || s.verifyNotified {
		return nil
	}
	s.verifyNotified = true
	files := nameList(s.unverified, 8)
	return &Intervention{
		Kind:       KindVerify,
		AtToolCall: s.toolCalls,
		Action:     Inject,
		Message: fmt.Sprintf("You changed %s and ended your turn, but no check has passed since the last edit. Run the project's build or tests for these changes and report the result, or say why no check applies.",
			files),
		Note:    fmt.Sprintf("no check has passed since you changed %s: run the build or tests, or say why none applies.", files),
		Why:     fmt.Sprintf("turn ended with %d changed file(s) unverified: %s", len(s.unverified), files),
		Figures: map[string]int{"files": len(s.unverified)},
	}
}

// IsVerifying reports whether a command runs one of the patterns: each
// pattern's words must start one of the command's parts (split at &&, ||,
// ;, |), after environment assignments and wrappers such as env, time,
// sudo or timeout. "ls" and "cat" verify nothing unless listed.
func IsVerifying(command string, patterns []string) bool {
	for _, part := range commandParts(command) {
		words := stripWrappers(strings.Fields(part))
		for _, pat := range patterns {
			pw := strings.Fields(pat)
			if len(pw) > 0 && len(words) >= len(pw) && slices.Equal(words[:len(pw)], pw) {
				return true
			}
		}
	}
	return false
}

// commandParts splits a command line at the shell's list and pipe operators.
func commandParts(cmd string) []string {
	return strings.FieldsFunc(cmd, func(r rune) bool {
		return r == '&' || r == '|' || r == ';' || r == '\n' || r == '(' || r == ')'
	})
}

// stripWrappers drops leading VAR=value words and wrapper commands.
func stripWrappers(words []string) []string {
	for len(words) > 0 {
		w := words[0]
		switch {
		case strings.Contains(w, "=") && !strings.HasPrefix(w, "-"):
			words = words[1:]
		case w == "env" || w == "time" || w == "sudo" || w == "nice" || w == "command":
			words = words[1:]
		case w == "timeout" && len(words) > 1:
			words = words[2:]
		default:
			return words
		}
	}
	return words
}
