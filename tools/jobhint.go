package tools

import "strings"

// detachHint is the note added to a command that put something in the
// background its own way (a trailing &, nohup, setsid, disown): keel
// stops every process a command leaves when it returns, so the model is
// told how to keep one running instead of polling for a process that is
// gone.
const detachHint = "[keel stops whatever a command leaves running in the background when the command returns. To keep a server or a long build running, call run_command with background: true, then read it with job_output]"

// detaches reports whether command puts a process in the background: an
// unquoted lone & (not &&, >&, &>, |&), or nohup, setsid or disown as a
// command word.
func detaches(command string) bool {
	var quote byte
	for i := 0; i < len(command); i++ {
		c := command[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '\\':
			i++
		case c == '&' && loneAmp(command, i):
			return true
		}
	}
	for _, part := range strings.FieldsFunc(command, func(r rune) bool { return r == ';' || r == '&' || r == '|' || r == '(' || r == '\n' }) {
		if f := strings.Fields(part); len(f) > 0 && (f[0] == "nohup" || f[0] == "setsid" || f[0] == "disown") {
			return true
		}
	}
	return false
}

// loneAmp: the & at i is the background operator, not part of &&, >&,
// &> or |&.
func loneAmp(s string, i int) bool {
	prev, next := byte(' '), byte(' ')
	if i > 0 {
		prev = s[i-1]
	}
	if i+1 < len(s) {
		next = s[i+1]
	}
	return prev != '&' && next != '&' && prev != '>' && next != '>' && prev != '|' && prev != '<'
}
