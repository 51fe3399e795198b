package agentdef

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// reviewer is a subagent file as Claude Code writes one.
const reviewer = `---
name: code-reviewer
description: Reviews a change for bugs and missing tests. Use after an edit.
tools: read_file, grep, glob
model: inherit
---
You are a careful reviewer.

Report bugs first.
`

func TestParse(t *testing.T) {
	cases := []struct {
		name, doc string
		want      Def
		err       string
	}{
		{"claude code's shape", reviewer, Def{Name: "code-reviewer", Description: "Reviews a change for bugs and missing tests. Use after an edit.",
			Tools: []string{"read_file", "grep", "glob"}, Prompt: "You are a careful reviewer.\n\nReport bugs first."}, ""},
		{"tools as a list, name from the file, CRLF", "---\r\ndescription: >\r\n  Finds things\r\n  fast.\r\ntools:\r\n  - grep\r\n  - glob\r\nmodel: gpt-4.1\r\n---\r\nFind.\r\n",
			Def{Name: "finder", Description: "Finds things fast.", Tools: []string{"grep", "glob"}, Model: "gpt-4.1", Prompt: "Find."}, ""},
		{"no tools: the call's or the default", "---\ndescription: d\n---\nbody", Def{Name: "finder", Description: "d", Prompt: "body"}, ""},
		{"no front matter", "just text", Def{}, "front matter"},
		{"unterminated front matter", "---\ndescription: d\n", Def{}, "front matter"},
		{"bad YAML", "---\ndescription: [\n---\nbody", Def{}, "not YAML"},
		{"no description", "---\ntools: grep\n---\nbody", Def{}, "needs a description"},
		{"empty body", "---\ndescription: d\n---\n\n", Def{}, "body"},
		{"a bad name", "---\nname: Bad Name\ndescription: d\n---\nbody", Def{}, "lower-case"},
		{"tools as a table", "---\ndescription: d\ntools: {a: 1}\n---\nbody", Def{}, "tools must be"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := Parse("finder", []byte(c.doc))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(d, c.want) {
				t.Errorf("Parse = %+v, %v; want %+v", d, err, c.want)
			}
		})
	}
}

func TestLoadLaterDirectoriesWin(t *testing.T) {
	user, project := t.TempDir(), t.TempDir()
	write := func(dir, name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(user, "helper.md", "---\ndescription: the user's\n---\nuser body")
	write(user, "only-user.md", "---\ndescription: u\n---\nbody")
	write(project, "helper.md", "---\ndescription: the project's\n---\nproject body")
	write(project, "broken.md", "no front matter")
	write(project, "notes.txt", "ignored")
	defs, errs := Load(user, project, filepath.Join(t.TempDir(), "missing"))
	if len(defs) != 2 || defs[0].Name != "helper" || defs[0].Description != "the project's" || defs[1].Name != "only-user" {
		t.Errorf("defs = %+v", defs)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "broken.md is not used") {
		t.Errorf("errs = %v", errs)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(reviewer)
	f.Add("---\n---\n")
	f.Add("---\ntools: [a, b]\ndescription: x\n---\ny")
	f.Fuzz(func(t *testing.T, doc string) {
		d, err := Parse("x", []byte(doc))
		if err == nil && (d.Description == "" || d.Prompt == "" || !validName.MatchString(d.Name)) {
			t.Fatalf("accepted %q as %+v", doc, d)
		}
	})
}
