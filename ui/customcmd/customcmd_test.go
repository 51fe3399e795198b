package customcmd

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// commandDirs writes a project's and a user's command files.
func commandDirs(t *testing.T, project, user map[string]string) Dirs {
	t.Helper()
	write := func(dir string, files map[string]string) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, content := range files {
			p := filepath.Join(dir, name)
			var err error
			if target, ok := strings.CutPrefix(content, "symlink:"); ok {
				err = os.Symlink(target, p)
			} else {
				err = os.WriteFile(p, []byte(content), 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	root := t.TempDir()
	d := Dirs{Project: filepath.Join(root, "proj", ".keel", "commands"), User: filepath.Join(root, "cfg", "keel", "commands")}
	write(d.Project, project)
	write(d.User, user)
	return d
}

func TestLoadCommands(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.md")
	if err := os.WriteFile(outside, []byte("a secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name          string
		project, user map[string]string
		want          []string // name: description
		notices       []string // each a substring of one notice, in order
	}{
		{"none", nil, nil, nil, nil},
		{"project and user", map[string]string{"review.md": "# Review the diff\n\nReview $ARGUMENTS."},
			map[string]string{"explain.md": "\n\nExplain $ARGUMENTS simply"},
			[]string{"/explain: Explain $ARGUMENTS simply", "/review: Review the diff"}, nil},
		{"user wins", map[string]string{"fix.md": "project fix"}, map[string]string{"fix.md": "my fix"},
			[]string{"/fix: my fix"}, []string{"/fix: your " /* …/fix.md replaces the project's .keel/commands/fix.md */}},
		{"malformed", map[string]string{"two words.md": "x", "empty.md": " \n", "bin.md": "a\x00b", "ok.md": "fine",
			"notes.txt": "not a command", "leak.md": "symlink:" + outside, "big.md": strings.Repeat("x", maxCommandFile+1)}, nil,
			[]string{"/ok: fine"},
			[]string{"big.md ignored: larger than 64 KiB", "bin.md ignored: not UTF-8", "empty.md ignored: empty",
				"leak.md ignored: cannot be read", "two words.md ignored: a name is letters"}},
		{"user symlink", nil, map[string]string{"mine.md": "symlink:" + outside}, []string{"/mine: a secret"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmds, notices := loadCommands(commandDirs(t, tc.project, tc.user))
			var got []string
			for _, c := range cmds {
				got = append(got, c.Name+": "+c.Desc)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("commands %q, want %q", got, tc.want)
			}
			if len(notices) != len(tc.notices) {
				t.Fatalf("notices %q, want %d", notices, len(tc.notices))
			}
			for i, n := range tc.notices {
				if !strings.Contains(notices[i], n) {
					t.Errorf("notice %q lacks %q", notices[i], n)
				}
			}
		})
	}
	if cmds, notices := loadCommands(Dirs{Project: "/nonexistent/x", User: ""}); len(cmds) != 0 || len(notices) != 0 {
		t.Fatal("a missing directory is no error")
	}
}

func TestCustomCommandExpands(t *testing.T) {
	c := Command{Name: "/r", body: "Review $ARGUMENTS, then $ARGUMENTS again"}
	if got := c.Expand("ui/x.go"); got != "Review ui/x.go, then ui/x.go again" {
		t.Fatal(got)
	}
	c.body = "Summarise the repo\n"
	if got := c.Expand("briefly"); got != "Summarise the repo\n\nbriefly" {
		t.Fatalf("%q", got)
	}
	if got := c.Expand(""); got != "Summarise the repo\n" {
		t.Fatalf("%q", got)
	}
}

// A first "# heading" line is the description only: it is not sent
// (issue 32); a first line of plain text is both (nothing else to send).
func TestDescriptionHeadingIsNotSent(t *testing.T) {
	cases := []struct {
		file, desc, sent string
		fails            bool
	}{
		{"# Review a file for bugs\nReview $ARGUMENTS for bugs.\n", "Review a file for bugs", "Review a.go for bugs.\n", false},
		{"\n## Review\n\nReview $ARGUMENTS.", "Review", "Review a.go.", false},
		{"Review $ARGUMENTS now\n", "Review $ARGUMENTS now", "Review a.go now\n", false},
		{"# only a title\n\n", "", "", true},
	}
	for _, c := range cases {
		cmd, err := parseCommand("r", "r.md", []byte(c.file))
		if (err != nil) != c.fails {
			t.Fatalf("%q: err %v, want failure %v", c.file, err, c.fails)
		}
		if err != nil {
			continue
		}
		if cmd.Desc != c.desc || cmd.Expand("a.go") != c.sent {
			t.Errorf("%q: desc %q, sent %q; want %q, %q", c.file, cmd.Desc, cmd.Expand("a.go"), c.desc, c.sent)
		}
	}
}
