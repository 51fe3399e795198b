package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/keel-dev/keel/ui/editor"
)

// pasteRun pastes s and feeds back the image the paste's command read.
func pasteRun(m *Model, s string) {
	_, cmd := m.Update(tea.PasteMsg{Content: s})
	if cmd == nil {
		return
	}
	if msg, ok := cmd().(editor.ImageMsg); ok {
		m.Update(msg)
	}
}

// A pasted path of an image file becomes a chip; a model that does not
// accept images gets a clear message and the prompt stays in the box; a
// pasted .png that is no image goes in as text, saying why.
func TestPastedImagePathIsAChip(t *testing.T) {
	m, _ := newLLMModel(t, 100, 30, Options{})
	dir := t.TempDir()
	shot := filepath.Join(dir, "my shot.png")
	if err := os.WriteFile(shot, pngImage(t, 7, 5).Data, 0o644); err != nil {
		t.Fatal(err)
	}
	pasteRun(m, "'"+shot+"'")
	typeText(m, "what is this?")
	if v := m.input.Value(); v != "[image 7×5] what is this?" {
		t.Fatalf("box = %q", v)
	}
	if !strings.Contains(m.View().Content, m.st.Chip.Render("[image 7×5]")) {
		t.Errorf("the image is not drawn as a chip:\n%s", m.View().Content)
	}
	m.Update(press("enter"))
	if s := plain(m); !strings.Contains(s, "the model gpt-test does not accept images") || m.running {
		t.Errorf("a model without images:\n%s", s)
	}
	if v := m.input.Value(); !strings.Contains(v, "[image 7×5]") {
		t.Errorf("the refused prompt left the box: %q", v)
	}

	m.input.Clear()
	fake := filepath.Join(dir, "fake.png")
	_ = os.WriteFile(fake, []byte("not a picture"), 0o644)
	pasteRun(m, fake)
	if v := m.input.Value(); v != fake || !strings.Contains(plain(m), "not attached: fake.png is not a PNG, JPEG, GIF or WebP image") {
		t.Errorf("box %q\n%s", v, plain(m))
	}
}
