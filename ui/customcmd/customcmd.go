// Package customcmd reads the custom /commands: Markdown files in the
// project's .keel/commands/ and the user's $XDG_CONFIG_HOME/keel/commands/:
// review.md becomes /review, its text the prompt (after a first "# description" line, which
// only /help and Tab show), with $ARGUMENTS replaced by what follows the
// command (or the arguments appended when it has no $ARGUMENTS). They are
// read once, at start-up, in a command. A project's file is untrusted
// input, but it only becomes a prompt the user chose to send; its
// description is sanitised like any text keel did not write, and a
// symlink in the project's directory may not lead out of it (it could
// point at a file the project should not see).
package customcmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/keel-dev/keel/internal/lazyre"
	"github.com/keel-dev/keel/ui/common"
)

// maxCommandFile is the largest command file read.
const maxCommandFile = 64 << 10

// commandName is what a file name (without .md) must look like.
var commandName = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9_-]*$`)

// Command is a prompt kept in a file and run as /name.
type Command struct {
	Name   string // with the slash: "/review"
	Desc   string // the first line of the file, sanitised
	Source string // the file as shown in notices
	body   string
}

// Expand is the prompt for args: $ARGUMENTS replaced, or args appended.
func (c Command) Expand(args string) string {
	if strings.Contains(c.body, "$ARGUMENTS") {
		return strings.ReplaceAll(c.body, "$ARGUMENTS", args)
	}
	if args == "" {
		return c.body
	}
	return strings.TrimRight(c.body, "\n") + "\n\n" + args
}

// Dirs are where custom commands are read from; "" skips one.
type Dirs struct {
	Project string // the project's .keel/commands
	User    string // $XDG_CONFIG_HOME/keel/commands
}

// Msg carries the custom commands read at start-up and one line for each
// file that was ignored or overridden.
type Msg struct {
	Commands []Command
	Notices  []string
}

// Load reads the command directories in a command; its Msg comes back to
// the root model.
func Load(dirs Dirs) tea.Cmd {
	if dirs.Project == "" && dirs.User == "" {
		return nil
	}
	return func() tea.Msg {
		cmds, notices := loadCommands(dirs)
		return Msg{Commands: cmds, Notices: notices}
	}
}

// loadCommands reads both directories: on a name clash the user's file
// wins over the project's, with a notice. A missing or unreadable
// directory is no error; each bad file is one notice.
func loadCommands(dirs Dirs) ([]Command, []string) {
	project, notices := readCommandDir(dirs.Project, ".keel/commands", true)
	user, more := readCommandDir(dirs.User, dirs.User, false)
	notices = append(notices, more...)
	byName := map[string]Command{}
	for _, c := range project {
		byName[c.Name] = c
	}
	for _, c := range user {
		if p, ok := byName[c.Name]; ok {
			notices = append(notices, fmt.Sprintf("%s: your %s replaces the project's %s", c.Name, c.Source, p.Source))
		}
		byName[c.Name] = c
	}
	out := make([]Command, 0, len(byName))
	for _, c := range byName {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, notices
}

// readCommandDir reads the *.md files of dir; label is how notices name
// it. A project's files are opened through os.Root, so a symlink cannot
// lead out of its directory.
func readCommandDir(dir, label string, project bool) ([]Command, []string) {
	if dir == "" {
		return nil, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil // missing or unreadable: no commands, no error
	}
	open := func(name string) (*os.File, error) { return os.Open(filepath.Join(dir, name)) }
	if project {
		root, err := os.OpenRoot(dir)
		if err != nil {
			return nil, nil
		}
		defer root.Close()
		open = root.Open
	}
	var cmds []Command
	var notices []string
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".md")
		if !ok || e.IsDir() {
			continue
		}
		source := filepath.Join(label, e.Name())
		c, err := readCommandFile(open, e.Name(), name, source)
		if err != nil {
			notices = append(notices, fmt.Sprintf("custom command %s ignored: %s", common.Clean(source), err))
			continue
		}
		cmds = append(cmds, c)
	}
	return cmds, notices
}

// readCommandFile reads and checks one command file.
func readCommandFile(open func(string) (*os.File, error), file, name, source string) (Command, error) {
	if !commandName().MatchString(name) {
		return Command{}, errors.New("a name is letters, digits, - and _")
	}
	f, err := open(file)
	if err != nil {
		return Command{}, errors.New("cannot be read (a symlink out of the directory, or no permission)")
	}
	defer f.Close()
	info, err := f.Stat()
	switch {
	case err != nil:
		return Command{}, errors.New("cannot be read")
	case !info.Mode().IsRegular():
		return Command{}, errors.New("not a regular file")
	case info.Size() > maxCommandFile:
		return Command{}, fmt.Errorf("larger than %d KiB", maxCommandFile>>10)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxCommandFile))
	if err != nil {
		return Command{}, errors.New("cannot be read")
	}
	return parseCommand(name, source, data)
}

// parseCommand makes a command of a file's content.
func parseCommand(name, source string, data []byte) (Command, error) {
	switch {
	case !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0:
		return Command{}, errors.New("not UTF-8 text")
	case len(bytes.TrimSpace(data)) == 0:
		return Command{}, errors.New("empty")
	}
	body := strings.ReplaceAll(string(data), "\r\n", "\n")
	desc := commandDesc(body)
	if rest, ok := withoutHeading(body); ok {
		if strings.TrimSpace(rest) == "" {
			return Command{}, errors.New("only a # description line, no prompt after it")
		}
		body = rest
	}
	return Command{Name: "/" + name, Desc: desc, body: body, Source: source}, nil
}

// withoutHeading is body after its first non-empty line when that line is
// a Markdown heading: the "# description" is for /help and Tab, not a
// line of the prompt.
func withoutHeading(body string) (string, bool) {
	trimmed := strings.TrimLeft(body, " \t\n")
	if !strings.HasPrefix(trimmed, "#") {
		return body, false
	}
	_, rest, _ := strings.Cut(trimmed, "\n")
	return strings.TrimLeft(rest, "\n"), true
}

// commandDesc is a command's description: its first non-empty line
// without Markdown heading marks, sanitised and short.
func commandDesc(body string) string {
	for _, l := range strings.Split(body, "\n") {
		l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "#"))
		if l != "" {
			return ansi.Truncate(common.OneLine(l), 60, "…")
		}
	}
	return ""
}
