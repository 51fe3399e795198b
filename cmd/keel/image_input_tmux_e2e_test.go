package main

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/ui"
)

// writePNG writes a w×h PNG at path.
func writePNG(t *testing.T, path string, w, h int) {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Image input through the binary in a terminal: @shot.png, a pasted image
// file path (bracketed paste, as a file dropped on the terminal) and the
// clipboard's image (ctrl+v through xclip, here a script standing in for
// it) each show as a chip and reach the fake model's request as image
// input.
func TestTUIImageInputInTmux(t *testing.T) {
	t.Parallel()
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("A small square."), llmtest.TextRound("Another one."),
		llmtest.TextRound("From the clipboard.")))
	home, dir := t.TempDir(), project(t)
	writePNG(t, filepath.Join(dir, "shot.png"), 7, 5)
	outside := filepath.Join(t.TempDir(), "dropped shot.png")
	writePNG(t, outside, 3, 2)
	bin := t.TempDir()
	clip := filepath.Join(t.TempDir(), "clip.png")
	writePNG(t, clip, 4, 4)
	if err := os.WriteFile(filepath.Join(bin, "xclip"), []byte("#!/bin/sh\nexec cat '"+clip+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(home, "cfg", "keel", "config.toml")
	_ = os.MkdirAll(filepath.Dir(cfg), 0o755)
	if err := os.WriteFile(cfg, []byte("model = \"fake-vision\"\n[images]\nmodels = [\"fake-vision\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := tmuxEnv(home, srv)
	for i, e := range env {
		if strings.HasPrefix(e, "PATH=") {
			env[i] = "PATH=" + bin + ":" + os.Getenv("PATH")
		}
	}
	env = append(env, "DISPLAY=:99", "WAYLAND_DISPLAY=")
	tm := startTmux(t, env, dir)
	tm.waitFor("Ask keel")

	tm.keys("@sho")
	tm.waitFor("› shot.png")
	tm.keys("Tab")
	tm.keys("what is this?", "Enter")
	tm.waitFor("shot.png [image 7×5]", "A small square.")
	tm.waitTitle(ui.TitleReady)

	tm.run("set-buffer", "-b", "keel-e2e", "'"+outside+"'")
	tm.run("paste-buffer", "-p", "-d", "-b", "keel-e2e", "-t", tm.session)
	tm.waitFor("[image 3×2]")
	tm.keys(" and this?", "Enter")
	tm.waitFor("Another one.")
	tm.waitTitle(ui.TitleReady)

	tm.keys("C-v")
	t.Logf("with the clipboard's image in the box:\n%s", tm.waitFor("[image 4×4]"))
	tm.keys(" and the clipboard?", "Enter")
	tm.waitFor("From the clipboard.")

	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3:\n%s", len(reqs), tm.screen())
	}
	for i, want := range []string{"what is this?", "and this?", "and the clipboard?"} {
		msgs := reqs[i].Messages
		last := msgs[len(msgs)-1]
		if last.Role != "user" || !strings.Contains(last.Content, want) || len(last.Images) != 1 ||
			!strings.HasPrefix(last.Images[0], "data:image/png;base64,") {
			t.Errorf("request %d's prompt: %s", i+1, last.Raw)
		}
		if strings.Contains(last.Content, "<file path=") {
			t.Errorf("request %d sent the image as a text file: %.300s", i+1, last.Content)
		}
	}
}
