package tools

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// File access that cannot be raced. The permission check approves a
// resolved path; by the time the tool runs, a process may have swapped a
// directory on that path for a symlink to somewhere else (.git/hooks,
// $HOME). So tools act on exactly the approved path (the agent passes it
// with WithTarget), and open its directory once, through os.Root, checking
// the kernel's view of the opened directory is that path: every later step
// (reading, the temp file, the rename) is relative to that handle, and a
// symlink in the last component cannot lead out of it.

// errSwapped is the refusal when the path changed under the tool.
var errSwapped = errors.New("the path changed while keel was using it (a directory was replaced, perhaps by a symlink); nothing was done, retry")

type targetKey struct{}

// WithTarget carries the resolved path the permission check approved for
// one call; the tool then acts on it instead of resolving the model's
// path again.
func WithTarget(ctx context.Context, abs string) context.Context {
	if abs == "" {
		return ctx
	}
	return context.WithValue(ctx, targetKey{}, abs)
}

// resolveCall is the path a tool acts on: the approved target when there
// is one, else the model's path resolved now.
func resolveCall(ctx context.Context, ws *Workspace, p string) (string, error) {
	if t, ok := ctx.Value(targetKey{}).(string); ok {
		return t, nil
	}
	return ws.Resolve(p)
}

// openDir opens dir, which must be an absolute path without symlinks, and
// checks the directory opened is dir itself.
func openDir(dir string) (*os.Root, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	if !isDir(r, dir) {
		r.Close()
		return nil, errSwapped
	}
	return r, nil
}

// readAt reads the regular file abs, or returns its info and why not.
// limit caps the size read (0: no cap); larger files return their info
// with errTooLarge.
func readAt(abs string, limit int64) ([]byte, fs.FileInfo, error) {
	if ok, data, fi, err := readAtFast(abs, limit); ok {
		return data, fi, err
	}
	r, err := openDir(filepath.Dir(abs))
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	f, err := r.Open(filepath.Base(abs))
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return nil, nil, err
	case !fi.Mode().IsRegular():
		return nil, fi, nil
	case limit > 0 && fi.Size() > limit:
		return nil, fi, errTooLarge
	}
	data, err := io.ReadAll(f)
	return data, fi, err
}

var errTooLarge = errors.New("file too large")

// writeAt replaces abs with data: a temp file in the same directory, then
// a rename, both through the checked directory handle, so a crash or a
// full disk never leaves half a file and a swap never redirects it.
func writeAt(abs string, data []byte, mode fs.FileMode) error {
	return writeAtFrom(abs, mode, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeAtFrom is writeAt with the content written by fill, which may
// stream it (a large write_file decoded from its arguments).
func writeAtFrom(abs string, mode fs.FileMode, fill func(io.Writer) error) error {
	r, err := openDir(filepath.Dir(abs))
	if err != nil {
		return fmt.Errorf("write %s: %w", abs, err)
	}
	defer r.Close()
	base := filepath.Base(abs)
	tmp := tempName(base)
	f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode.Perm())
	if err != nil {
		return fmt.Errorf("write %s: %w", abs, err)
	}
	ok := false
	defer func() {
		if !ok {
			f.Close()
			r.Remove(tmp)
		}
	}()
	if err := fill(f); err != nil {
		return fmt.Errorf("write %s: %w", abs, err)
	}
	if err := f.Chmod(mode.Perm()); err != nil { // the umask narrowed OpenFile's mode
		return fmt.Errorf("write %s: %w", abs, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", abs, err)
	}
	if err := r.Rename(tmp, base); err != nil {
		return fmt.Errorf("write %s: %w", abs, err)
	}
	ok = true
	return nil
}

// removeAt removes the file abs through its checked directory.
func removeAt(abs string) error {
	r, err := openDir(filepath.Dir(abs))
	if err != nil {
		return err
	}
	defer r.Close()
	return r.Remove(filepath.Base(abs))
}

func randomSuffix() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// sameDir compares the open directory f with the one at path dir now.
func sameDir(f *os.File, dir string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Lstat(dir)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// mkdirAll creates dir and its parents: inside the workspace through a
// root at the workspace, so a swapped symlink cannot lead it out (writeAt
// then checks the directory it writes in).
func (w *Workspace) mkdirAll(dir string) error {
	if !w.Inside(dir) {
		return os.MkdirAll(dir, 0o755)
	}
	r, err := os.OpenRoot(w.root)
	if err != nil {
		return err
	}
	defer r.Close()
	rel, err := filepath.Rel(w.root, dir)
	if err != nil {
		return err
	}
	return r.MkdirAll(rel, 0o755)
}

// readDirAt lists the directory dir through a checked handle.
func readDirAt(dir string) ([]fs.DirEntry, error) {
	r, err := openDir(dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return fs.ReadDir(r.FS(), ".")
}

// openChecked opens the file abs through its checked directory.
func openChecked(abs string) (*os.File, error) {
	r, err := openDir(filepath.Dir(abs))
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.Open(filepath.Base(abs))
}

// statAt is the file abs's info, through its checked directory.
func statAt(abs string) (fs.FileInfo, error) {
	if fi, ok := statAtFast(abs); ok {
		return fi, nil
	}
	r, err := openDir(filepath.Dir(abs))
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.Stat(filepath.Base(abs))
}

type writesKey struct{}

// WithWrites marks a run_command call that the user, a rule, a session
// grant or --yolo approved: it runs with a writable workspace. A call
// without it runs in the read-only sandbox (Decision.ReadOnly), so a
// caller that forgets it gets a command that cannot write, never the
// reverse.
func WithWrites(ctx context.Context) context.Context {
	return context.WithValue(ctx, writesKey{}, true)
}

func writesApproved(ctx context.Context) bool {
	ok, _ := ctx.Value(writesKey{}).(bool)
	return ok
}
