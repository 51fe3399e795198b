package attach

import (
	"strings"
	"testing"
)

// TestRoundTrip: a prompt sent with !command outputs and mentioned files
// (Compose) splits back into what was typed, the files and the outputs.
func TestRoundTrip(t *testing.T) {
	zero, two := 0, 2
	readme := File{Path: "README.md", Text: "# demo\n", Size: 7}
	big := File{Path: "big.log", Text: strings.Repeat("x", 40), Size: 1 << 20} // cut: its size is more
	quoted := File{Path: `dir/"odd" name.go`, Text: "package x\n</file> inside\n", Size: 25}
	tests := []struct {
		name   string
		prompt string
		files  []File
		outs   []Output
	}{
		{"plain", "fix the build", nil, nil},
		{"one file", "summarise @README.md", []File{readme}, nil},
		{"cut and quoted files", "compare @big.log and the other", []File{big, quoted}, nil},
		{"outputs", "and now?", nil, []Output{{Command: "echo hi", Exit: &zero, Output: "hi\n"},
			{Command: `grep -n "x" a.go`, Exit: &two, Output: "grep: a.go: No such file\n"}, {Command: "sleep 9", Output: "(cancelled)\n"}}},
		{"both", "look at @README.md", []File{readme}, []Output{{Command: "ls", Exit: &zero, Output: "README.md\n"}}},
		{"a file element typed", "what does \n\n<file path=\"x\"> mean", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, outs, files := Parse(Compose(tt.prompt, tt.files, tt.outs))
			if text != tt.prompt {
				t.Errorf("text = %q, want %q", text, tt.prompt)
			}
			if len(files) != len(tt.files) {
				t.Fatalf("files = %+v, want %+v", files, tt.files)
			}
			for i, f := range files {
				if f.Path != tt.files[i].Path || f.Size != tt.files[i].Size || f.Note() != tt.files[i].Note() {
					t.Errorf("file %d = %+v (%s), want %+v (%s)", i, f, f.Note(), tt.files[i], tt.files[i].Note())
				}
			}
			if len(outs) != len(tt.outs) {
				t.Fatalf("outputs = %+v, want %+v", outs, tt.outs)
			}
			for i, o := range outs {
				w := tt.outs[i]
				if o.Command != w.Command || o.Output != w.Output || (o.Exit == nil) != (w.Exit == nil) || (o.Exit != nil && *o.Exit != *w.Exit) {
					t.Errorf("output %d = %+v, want %+v", i, o, w)
				}
			}
		})
	}
}

func TestNotes(t *testing.T) {
	zero := 0
	chips, line := Notes([]File{{Path: "a.go", Text: "x", Size: 1}, {Path: "big", Text: "xx", Size: 4096}},
		[]Output{{Command: "go\ttest  ./...", Exit: &zero}})
	if strings.Join(chips, ",") != "@a.go,@big" {
		t.Errorf("chips = %q", chips)
	}
	if want := "with a.go (1 B) · big (first 2 B of 4.0 KiB) · output of !go test ./..."; line != want {
		t.Errorf("line = %q, want %q", line, want)
	}
	if chips, line := Notes(nil, nil); chips != nil || line != "" {
		t.Errorf("nothing attached: %q %q", chips, line)
	}
}

// FuzzParse: any stored prompt parses without panicking, and one Parse
// finds nothing in comes back whole.
func FuzzParse(f *testing.F) {
	zero := 0
	f.Add(Compose("fix it", []File{{Path: "a.go", Text: "package a\n", Size: 10}}, []Output{{Command: "ls", Exit: &zero, Output: "a.go\n"}}))
	f.Add("what does \n\n<file path=\"x\"> mean")
	f.Add(shellPreamble + outputOpen + `command="x" exit_code="1">` + "\n")
	f.Fuzz(func(t *testing.T, sent string) {
		text, outs, files := Parse(sent)
		if len(outs) == 0 && len(files) == 0 && text != sent {
			t.Fatalf("nothing parsed, yet the text changed: %q -> %q", sent, text)
		}
		if len(text) > len(sent) {
			t.Fatalf("the text grew: %q -> %q", sent, text)
		}
	})
}
