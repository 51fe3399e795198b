package tools

import (
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The tool names and parameters are a contract with the model and the
// issue; this pins them.
func TestToolContract(t *testing.T) {
	want := map[string][]string{
		NameReadFile:   {"path", "offset", "limit"},
		NameListDir:    {"path"},
		NameGlob:       {"pattern", "path"},
		NameGrep:       {"pattern", "path", "include", "ignore_case", "context"},
		NameWriteFile:  {"path", "content"},
		NameEditFile:   {"path", "old_string", "new_string", "replace_all"},
		NameRunCommand: {"command", "timeout_seconds", "workdir", "background"},
		NameJobOutput:  {"job_id", "wait_seconds", "filter"},
		NameJobStop:    {"job_id"},
	}
	ws := newTestWS(t, nil)
	ts := New(ws, Options{Jobs: NewJobs(JobsOptions{})})
	if len(ts) != len(want) {
		t.Fatalf("New returned %d tools, want %d", len(ts), len(want))
	}
	for _, tool := range ts {
		var s struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		if err := json.Unmarshal(tool.Schema(), &s); err != nil {
			t.Fatalf("%s: schema: %v", tool.Name(), err)
		}
		var got []string
		for k := range s.Properties {
			got = append(got, k)
		}
		slices.Sort(got)
		w := slices.Clone(want[tool.Name()])
		slices.Sort(w)
		if !slices.Equal(got, w) || s.Type != "object" {
			t.Errorf("%s: properties %v, want %v", tool.Name(), got, w)
		}
		if tool.Description() == "" || strings.Contains(string(tool.Schema()), `"description":""`) {
			t.Errorf("%s: missing description", tool.Name())
		}
	}
}

// nested is a params struct with a list of objects and an enum.
type nested struct {
	Goal  string `json:"goal"`
	Note  string `json:"note,omitempty"`
	Items []struct {
		Kind string `json:"kind" enum:"a,b"`
	} `json:"items"`
}

func TestSchemaNested(t *testing.T) {
	got := string(schemaFor(nested{}, nil))
	for _, s := range []string{`"required":["goal","items"]`, `"enum":["a","b"]`, `"type":"array"`} {
		if !strings.Contains(got, s) {
			t.Errorf("schema lacks %s:\n%s", s, got)
		}
	}
	if got := string(schemaFor(nested{}, map[string][]string{"kind": {"x", "y"}})); !strings.Contains(got, `"enum":["x","y"]`) {
		t.Errorf("an enum given by name does not replace the tag's:\n%s", got)
	}
}

func TestUnknownArgumentReported(t *testing.T) {
	ws := newTestWS(t, map[string]string{"a.txt": "x\n"})
	res := call(t, ws, Options{}, NameReadFile, m{"path": "a.txt", "lines": 3})
	wantOutput(t, res, true, "invalid arguments", "lines")
}

// tools must stay a leaf: no agent, ui, config or charm imports.
func TestImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skip("go list unavailable:", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, bad := range []string{"/agent", "/ui", "/config", "charm.land", "charmbracelet"} {
			if strings.Contains(dep, bad) {
				t.Errorf("tools depends on %s", dep)
			}
		}
	}
}
