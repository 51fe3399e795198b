package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"unicode/utf8"
)

// errEnoughFiles ends a listing that reached its limit.
var errEnoughFiles = errors.New("enough files")

// Files lists the workspace's regular files as slash-separated paths
// relative to the root, in lexical order: what .gitignore excludes, .git
// and symlinks are left out (a link may lead outside). At most limit are
// returned (0: no limit); the listing honours ctx. It is what the TUI
// offers after an @.
func (w *Workspace) Files(ctx context.Context, limit int) ([]string, error) {
	var out []string
	err := w.walk(ctx, w.root, func(abs string, d fs.DirEntry) error {
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(w.root, abs)
		if err != nil {
			return nil
		}
		out = append(out, filepath.ToSlash(rel))
		if limit > 0 && len(out) >= limit {
			return errEnoughFiles
		}
		return nil
	})
	if err != nil && !errors.Is(err, errEnoughFiles) {
		return out, fmt.Errorf("list the workspace's files: %w", err)
	}
	return out, nil
}

// ReadMention reads the first limit bytes of the text file rel (a path
// relative to the root) for a mention, and its whole size. It refuses,
// with an error that is one sentence for the user, a path that resolves
// outside the workspace or into .git, what is not a regular file, and a
// binary file (a NUL byte in its first 8 KiB).
func (w *Workspace) ReadMention(rel string, limit int) (text string, size int64, err error) {
	abs, err := w.Resolve(rel)
	switch {
	case err != nil:
		return "", 0, fmt.Errorf("%s cannot be read: %w", rel, err)
	case !w.Inside(abs) || InGitDir(abs):
		return "", 0, fmt.Errorf("%s is outside the workspace", rel)
	}
	f, err := openChecked(abs)
	if err != nil {
		return "", 0, fmt.Errorf("%s cannot be read: %w", rel, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return "", 0, fmt.Errorf("%s cannot be read: %w", rel, err)
	case !fi.Mode().IsRegular():
		return "", 0, fmt.Errorf("%s is not a regular file", rel)
	}
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)))
	if err != nil {
		return "", 0, fmt.Errorf("%s cannot be read: %w", rel, err)
	}
	if looksBinary(data) {
		return "", fi.Size(), fmt.Errorf("%s is a binary file (%s)", rel, humanSize(fi.Size()))
	}
	return string(trimPartialRune(data)), fi.Size(), nil
}

// trimPartialRune drops a UTF-8 character cut short at the end of b.
func trimPartialRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}

// ReadImage reads the image file rel (a path relative to the root) for
// an @mention, refused as ReadMention refuses, and when it is not a PNG,
// JPEG, GIF or WebP image of at most MaxImageBytes.
func (w *Workspace) ReadImage(rel string) (Image, error) {
	abs, err := w.Resolve(rel)
	switch {
	case err != nil:
		return Image{}, fmt.Errorf("%s cannot be read: %w", rel, err)
	case !w.Inside(abs) || InGitDir(abs):
		return Image{}, fmt.Errorf("%s is outside the workspace", rel)
	}
	return ReadImageFile(abs, rel)
}

// ReadImageFile reads the image at abs, named name in errors: a pasted
// path, which the user chose, may be anywhere.
func ReadImageFile(abs, name string) (Image, error) {
	f, err := openChecked(abs)
	if err != nil {
		return Image{}, fmt.Errorf("%s cannot be read: %w", name, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return Image{}, fmt.Errorf("%s cannot be read: %w", name, err)
	case !fi.Mode().IsRegular():
		return Image{}, fmt.Errorf("%s is not a regular file", name)
	case fi.Size() > MaxImageBytes:
		return Image{}, fmt.Errorf("%s is %s, more than the %s a model takes", name, humanSize(fi.Size()), humanSize(MaxImageBytes))
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxImageBytes+1))
	if err != nil {
		return Image{}, fmt.Errorf("%s cannot be read: %w", name, err)
	}
	im, err := NewImage(data, name)
	if err != nil {
		return Image{}, fmt.Errorf("%s is %w", name, err)
	}
	return im, nil
}
