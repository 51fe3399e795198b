package editor

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/keel-dev/keel/tools"
	"github.com/keel-dev/keel/ui/attach"
	"github.com/keel-dev/keel/ui/common"
)

// Images in the prompt: an @mention of an image file (read as an image,
// not as text), a pasted path of an image file (a file dragged onto the
// terminal pastes its path), or the clipboard's image (ctrl+v, through
// wl-paste, xclip or pngpaste where one is installed: a terminal pastes
// only text). Each shows as a chip; the prompt carries them as images.

// imageReader reads an @mentioned image (tools.Workspace does).
type imageReader interface {
	ReadImage(rel string) (tools.Image, error)
}

// ImageMsg carries a pasted image (a path's, or the clipboard's), or why
// there is none; text is what was pasted, put back in the box as text
// when it was no image.
type ImageMsg struct {
	img  tools.Image
	text string
	err  error
}

// readMentionImage reads an @mentioned image file.
func readMentionImage(r imageReader, path string) tea.Cmd {
	return func() tea.Msg {
		im, err := r.ReadImage(path)
		if err != nil {
			return MentionMsg{path: path, err: err}
		}
		return MentionMsg{path: path, image: &im, size: int64(len(im.Data))}
	}
}

// pastedImagePath returns the file a paste names when it is one path of
// an image file: as terminals paste a dropped file (quoted, with
// backslash escapes, or a file:// URL), absolute or from ~.
func pastedImagePath(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s, "\n\r") {
		return "", false
	}
	if u, err := url.Parse(s); err == nil && u.Scheme == "file" {
		s = u.Path
	} else if len(s) > 1 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		s = s[1 : len(s)-1]
	} else if strings.Contains(strings.ReplaceAll(s, `\ `, ""), " ") { // words, not one path
		return "", false
	} else {
		s = strings.NewReplacer(`\ `, " ", `\(`, "(", `\)`, ")", `\'`, "'").Replace(s)
	}
	if rest, ok := strings.CutPrefix(s, "~/"); ok {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", false
		}
		s = filepath.Join(home, rest)
	}
	if !filepath.IsAbs(s) || !tools.IsImagePath(s) {
		return "", false
	}
	return filepath.Clean(s), true
}

// readPastedImage reads the image file a paste named.
func readPastedImage(path, text string) tea.Cmd {
	return func() tea.Msg {
		im, err := tools.ReadImageFile(path, filepath.Base(path))
		return ImageMsg{img: im, text: text, err: err}
	}
}

// clipboardTimeout bounds a clipboard tool that does not answer.
const clipboardTimeout = 5 * time.Second

// clipboardCommands are the tools that print the clipboard's PNG, by the
// display they serve.
func clipboardCommands() [][]string {
	var cmds [][]string
	if runtime.GOOS == "darwin" {
		cmds = append(cmds, []string{"pngpaste", "-"})
	}
	if os.Getenv("WAYLAND_DISPLAY") != "" {
		cmds = append(cmds, []string{"wl-paste", "--no-newline", "--type", "image/png"})
	}
	if os.Getenv("DISPLAY") != "" {
		cmds = append(cmds, []string{"xclip", "-selection", "clipboard", "-target", "image/png", "-out"})
	}
	return cmds
}

// errNoClipboardTool says why ctrl+v attached nothing.
var errNoClipboardTool = errors.New("no clipboard image: keel reads one with wl-paste, xclip or pngpaste, and none is installed for this display; paste the image file's path instead")

// readClipboardImage reads the clipboard's image with the first tool
// installed.
func readClipboardImage() tea.Cmd {
	return func() tea.Msg {
		for _, argv := range clipboardCommands() {
			if _, err := exec.LookPath(argv[0]); err != nil {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), clipboardTimeout)
			out, err := exec.CommandContext(ctx, argv[0], argv[1:]...).Output()
			cancel()
			if err != nil || len(out) == 0 {
				return ImageMsg{err: errors.New("the clipboard holds no image (" + argv[0] + " found none)")}
			}
			im, err := tools.NewImage(out, "clipboard")
			if err != nil {
				return ImageMsg{err: fmt.Errorf("the clipboard's content is %w", err)}
			}
			return ImageMsg{img: im}
		}
		return ImageMsg{err: errNoClipboardTool}
	}
}

// PasteImage reads the clipboard's image (ctrl+v); ImageLoaded takes it.
func (in *Model) PasteImage() tea.Cmd { return readClipboardImage() }

// ImageLoaded takes a pasted image: a chip at the cursor. A paste that
// was no image goes into the box as text; the returned line says why an
// image was not attached.
func (in *Model) ImageLoaded(msg ImageMsg) string {
	if msg.err != nil {
		if msg.text != "" {
			in.ta.InsertString(msg.text)
		}
		return "not attached: " + common.Clean(msg.err.Error())
	}
	label := msg.img.Label()
	for i := 2; strings.Contains(in.ta.Value(), label); i++ {
		label = fmt.Sprintf("[image %d×%d #%d]", msg.img.Width, msg.img.Height, i)
	}
	im := msg.img
	in.mentions = append(in.mentions, mention{File: attach.File{Path: im.Name, Image: &im, Label: label, Size: int64(len(im.Data))}, loaded: true})
	in.ta.InsertString(label + " ")
	in.syncChips()
	return ""
}
