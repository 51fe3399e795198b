package attach

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/keel-dev/keel/internal/lazyre"
)

// outputHeader is a !command output element's attributes.
var outputHeader = lazyre.New(`^command=("(?:[^"\\]|\\.)*") exit_code=("(?:[^"\\]|\\.)*")>\n`)

// Parse splits a prompt as it was sent (Compose) into the text the user
// typed, the !command outputs before it and the files after it. A prompt
// that only looks like one keeps its text whole.
func Parse(sent string) (text string, outs []Output, files []File) {
	text, outs = cutOutputs(sent)
	text, files = cutFiles(text)
	return text, outs, files
}

// cutOutputs splits the !command outputs off the front of a prompt.
func cutOutputs(sent string) (string, []Output) {
	rest, ok := strings.CutPrefix(sent, shellPreamble)
	if !ok {
		return sent, nil
	}
	var outs []Output
	for strings.HasPrefix(rest, outputOpen) {
		m := outputHeader().FindStringSubmatch(rest[len(outputOpen):])
		if m == nil {
			return sent, nil
		}
		body := rest[len(outputOpen)+len(m[0]):]
		end := strings.Index(body, outputClose)
		cmd, err1 := strconv.Unquote(m[1])
		exit, err2 := strconv.Unquote(m[2])
		if end < 0 || err1 != nil || err2 != nil {
			return sent, nil
		}
		o := Output{Command: cmd, Output: body[:end]}
		if code, err := strconv.Atoi(exit); err == nil {
			o.Exit = &code
		}
		outs = append(outs, o)
		rest = body[end+len(outputClose):]
	}
	text, ok := strings.CutPrefix(rest, "\n")
	if !ok || len(outs) == 0 {
		return sent, nil
	}
	return text, outs
}

// cutFiles splits the attached files off the end of a prompt: from the
// first "<file" after which the rest is nothing but file elements.
func cutFiles(text string) (string, []File) {
	for at := strings.Index(text, fileOpen); at >= 0; {
		if files, ok := parseFiles(text[at:]); ok {
			return text[:at], files
		}
		next := strings.Index(text[at+1:], fileOpen)
		if next < 0 {
			break
		}
		at += 1 + next
	}
	return text, nil
}

// parseFiles reads s as a run of file elements to its end.
func parseFiles(s string) ([]File, bool) {
	var out []File
	for s != "" {
		m, rest, ok := parseFile(s)
		if !ok {
			return nil, false
		}
		out = append(out, m)
		s = rest
	}
	return out, true
}

// parseFile reads one file element from the start of s: the mention it
// was made from and what follows it.
func parseFile(s string) (File, string, bool) {
	var m File
	rest, ok := strings.CutPrefix(s, fileOpen)
	if !ok {
		return m, "", false
	}
	q, err := strconv.QuotedPrefix(rest)
	if err != nil {
		return m, "", false
	}
	m.Path, _ = strconv.Unquote(q)
	rest = rest[len(q):]
	var shown int
	if after, ok := strings.CutPrefix(rest, " note="); ok {
		nq, err := strconv.QuotedPrefix(after)
		if err != nil {
			return m, "", false
		}
		note, _ := strconv.Unquote(nq)
		if _, err := fmt.Sscanf(note, "only the first %d of %d bytes", &shown, &m.Size); err != nil {
			return m, "", false
		}
		rest = after[len(nq):]
	}
	body, ok := strings.CutPrefix(rest, ">\n")
	if !ok {
		return m, "", false
	}
	for i := 0; ; {
		j := strings.Index(body[i:], fileClose)
		if j < 0 {
			return m, "", false
		}
		end := i + j
		after := body[end+len(fileClose):]
		if after == "" || strings.HasPrefix(after, fileOpen) {
			m.Text = body[:end]
			if shown > 0 && shown <= len(m.Text) {
				m.Text = m.Text[:shown] // withFiles added a newline after a cut text
			}
			if m.Size == 0 {
				m.Size = int64(len(m.Text)) // one more than the file's when withFiles ended it with a newline
			}
			return m, after, true
		}
		i = end + len(fileClose)
	}
}
