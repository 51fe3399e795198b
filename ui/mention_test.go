package ui

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/ui/customcmd"
	"github.com/keel-dev/keel/ui/editor"
)

// fakeWorkspace is a hand-written Workspace: a file list and contents.
type fakeWorkspace struct {
	files    []string
	contents map[string]string
	listed   int // how many times Files ran
}

var _ editor.Workspace = (*fakeWorkspace)(nil)

func (w *fakeWorkspace) Files(context.Context, int) ([]string, error) {
	w.listed++
	return w.files, nil
}

func (w *fakeWorkspace) ReadMention(rel string, limit int) (string, int64, error) {
	c, ok := w.contents[rel]
	switch {
	case !ok:
		return "", 0, errors.New(rel + " cannot be read")
	case strings.ContainsRune(c, 0):
		return "", int64(len(c)), errors.New(rel + " is a binary file")
	}
	return c[:min(limit, len(c))], int64(len(c)), nil
}

func newMentionModel(t *testing.T, w, h int) (*Model, *fakeWorkspace, *llmtest.Server) {
	t.Helper()
	ws := &fakeWorkspace{
		files: []string{"README.md", "ui/model.go", "ui/model_test.go", "ui/modal.go", "logo.png", "big.log"},
		contents: map[string]string{"README.md": "# keel\n", "ui/model.go": "package ui\n", "logo.png": "\x89PNG\x00",
			"big.log": strings.Repeat("x", 32<<10+100)},
	}
	m, srv := newLLMModel(t, w, h, Options{Workspace: ws})
	return m, ws, srv
}

// typeRun types s one key at a time and runs (synchronously) the commands
// that list or read files, feeding their messages back.
func typeRun(m *Model, s string) {
	for _, r := range s {
		_, cmd := m.Update(press(string(r)))
		feed(m, cmd)
	}
}

// feed runs cmd and its batch, sending back the editor's messages. Only
// for keys whose commands read files or list them: a sent prompt's
// command would submit to the test session.
func feed(m *Model, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			feed(m, c)
		}
	case editor.FilesMsg, editor.MentionMsg, customcmd.Msg:
		m.Update(msg)
	}
}

func pressRun(m *Model, k string) {
	_, cmd := m.Update(press(k))
	feed(m, cmd)
}

func TestMentionAttachesTheFile(t *testing.T) {
	m, ws, srv := newMentionModel(t, 100, 30)
	typeRun(m, "explain @mod")
	if !strings.Contains(plain(m), "› ui/modal.go") || !strings.Contains(plain(m), "ui/model.go") {
		t.Fatalf("@mod should list the matching files:\n%s", plain(m))
	}
	pressRun(m, "down") // ui/model.go
	pressRun(m, "tab")
	if got := m.input.Value(); got != "explain @ui/model.go " {
		t.Fatalf("tab took %q", got)
	}
	if !strings.Contains(m.View().Content, m.st.Chip.Render("@ui/model.go")) {
		t.Fatal("the mention is not drawn as a chip in the input")
	}
	typeRun(m, "please")
	_, cmd := m.Update(press("enter"))
	p := sentPrompt(t, srv, cmd)
	if !strings.Contains(p, "<file path=\"ui/model.go\">\npackage ui\n</file>") || !strings.HasPrefix(p, "explain @ui/model.go please") {
		t.Fatalf("prompt sent: %q", p)
	}
	if s := plain(m); !strings.Contains(s, "› explain @ui/model.go please") || !strings.Contains(s, "with ui/model.go (11 B)") {
		t.Fatalf("transcript:\n%s", s)
	}
	if ws.listed != 1 {
		t.Fatalf("files listed %d times, want once for one @", ws.listed)
	}
	typeRun(m, "@")
	if ws.listed != 2 {
		t.Fatal("a new @ should list the files again")
	}
}

func TestMentionRefusesBinaryAndCutsLargeFiles(t *testing.T) {
	m, _, srv := newMentionModel(t, 100, 30)
	typeRun(m, "@logo")
	pressRun(m, "enter") // enter takes the completion too
	if s := plain(m); !strings.Contains(s, "not attached: logo.png is a binary file") {
		t.Fatalf("binary file:\n%s", s)
	}
	if strings.Contains(m.View().Content, m.st.Chip.Render("@logo.png")) {
		t.Fatal("the binary file kept its chip")
	}
	m.input.Set("")
	typeRun(m, "@big")
	pressRun(m, "tab")
	_, cmd := m.Update(press("enter"))
	if p := sentPrompt(t, srv, cmd); !strings.Contains(p, `note="only the first 32768 of 32868 bytes; the rest was cut"`) {
		t.Fatalf("large file sent as %q", p[:min(len(p), 200)])
	}
	if s := plain(m); !strings.Contains(s, "big.log (first 32.0 KiB of 32.1 KiB)") {
		t.Fatalf("large file shown as:\n%s", s)
	}
}

func TestMentionListClosesAndEscapes(t *testing.T) {
	m, _, _ := newMentionModel(t, 100, 30)
	typeRun(m, "@zzz")
	if m.input.Completing() {
		t.Fatal("no match should show no list")
	}
	typeRun(m, " mail@x")
	if m.input.Completing() {
		t.Fatal("an @ inside a word is no mention")
	}
	typeRun(m, " @")
	if !m.input.Completing() {
		t.Fatal("@ alone lists files")
	}
	pressRun(m, "esc")
	if m.input.Completing() || m.running {
		t.Fatal("esc closes the list")
	}
	m2 := newTestModel(t, 80, 24) // no workspace: @ is text
	typeRun(m2, "@x")
	if m2.input.Completing() {
		t.Fatal("without a workspace @ offers nothing")
	}
}

// TestEnterWaitsForAMentionBeingRead: Enter right after taking a file
// sends the prompt once the file is read, with the file.
func TestEnterWaitsForAMentionBeingRead(t *testing.T) {
	m, _, srv := newMentionModel(t, 100, 30)
	typeRun(m, "see @READ")
	_, read := m.Update(press("tab")) // the read is held back
	send(m, press("enter"))
	if m.running || !strings.Contains(plain(m), "reading README.md… the prompt goes when it is read") {
		t.Fatalf("enter should wait for the read:\n%s", plain(m))
	}
	_, cmd := m.Update(read()) // the read arrives; its command submits
	if p := sentPrompt(t, srv, cmd); !m.running || !strings.Contains(p, "<file path=\"README.md\">") {
		t.Fatalf("the prompt should go once the file is read: %q", p)
	}
}
