package tools

import (
	"context"
	"errors"
	"io/fs"
)

// ClientFiles is an editor's view of the files (the Agent Client
// Protocol's fs/read_text_file and fs/write_text_file): reads see its
// unsaved buffers, and writes go through it, so it shows and saves them.
// Paths are absolute and already checked against the workspace.
type ClientFiles interface {
	ReadTextFile(ctx context.Context, path string) (string, error)
	WriteTextFile(ctx context.Context, path, content string) error
}

// ErrNoClientFiles is what a ClientFiles returns for a file it leaves to
// the disk (an editor that offers reads but not writes).
var ErrNoClientFiles = errors.New("the editor does not handle this file")

// UseClientFiles routes read_file's, edit_file's and write_file's file
// access through cf; call it before the session starts. Everything else
// (the checks that a path is a regular text file, grep, commands) still
// reads the disk.
func (w *Workspace) UseClientFiles(cf ClientFiles) { w.client = cf }

// clientText is a file's text as the editor has it; the disk's (already
// read and checked) when there is no editor or it cannot say.
func (w *Workspace) clientText(ctx context.Context, abs string, disk []byte) []byte {
	if w.client == nil {
		return disk
	}
	s, err := w.client.ReadTextFile(ctx, abs)
	if err != nil {
		return disk
	}
	return []byte(s)
}

// writeText writes a file, through the editor when there is one.
func (w *Workspace) writeText(ctx context.Context, abs string, data []byte, mode fs.FileMode) error {
	if w.client != nil {
		if err := w.client.WriteTextFile(ctx, abs, string(data)); !errors.Is(err, ErrNoClientFiles) {
			return err
		}
	}
	return writeAt(abs, data, mode)
}
