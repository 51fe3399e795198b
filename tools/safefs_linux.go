package tools

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// isDir reports whether the directory r holds is dir, as the kernel names
// it (/proc/self/fd), so a swapped symlink anywhere on dir's path shows.
func isDir(r *os.Root, dir string) bool {
	f, err := r.Open(".")
	if err != nil {
		return false
	}
	defer f.Close()
	real, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
	if err != nil {
		return sameDir(f, dir) // no /proc: the weaker check
	}
	return real == dir
}

// The fast path of readAt and statAt: the path the permission check
// approved has no symlinks, so one openat2 call that follows none
// (RESOLVE_NO_SYMLINKS) opens exactly that file, where os.Root opens the
// directory, checks it through /proc and opens the file again (35 system
// calls a read_file, against 5). Any failure (a missing file, a symlink
// swapped in, no openat2) takes the os.Root path, which says why as
// before: the fast path only ever serves a file the slow one would have.

// openNoSymlinks opens abs, following no symlink on the way; O_NONBLOCK
// so a FIFO swapped in cannot block the open (openat2 refuses it and
// O_NOCTTY beside O_PATH).
func openNoSymlinks(abs string, flags uint64) (int, error) {
	if noOpenat2.Load() {
		return -1, unix.ENOSYS
	}
	if flags&unix.O_PATH == 0 {
		flags |= unix.O_NOCTTY | unix.O_NONBLOCK
	}
	how := unix.OpenHow{
		Flags:   flags | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	for {
		fd, err := unix.Openat2(unix.AT_FDCWD, abs, &how)
		if err == unix.ENOSYS {
			noOpenat2.Store(true) // a kernel before 5.6, or a filter that hides it: not again
		}
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// noOpenat2 is set once openat2 is known to be missing.
var noOpenat2 atomic.Bool

// readAtFast is readAt in one open; ok is false when the caller must take
// the os.Root path.
func readAtFast(abs string, limit int64) (ok bool, data []byte, fi fs.FileInfo, err error) {
	if !filepath.IsAbs(abs) || abs != filepath.Clean(abs) { // "/a/b/.." would open /a
		return false, nil, nil, nil
	}
	fd, err := openNoSymlinks(abs, unix.O_RDONLY)
	if err != nil {
		return false, nil, nil, nil
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		return false, nil, nil, nil
	}
	fi = statInfo(abs, &st)
	switch {
	case !fi.Mode().IsRegular():
		return true, nil, fi, nil
	case limit > 0 && st.Size > limit:
		return true, nil, fi, errTooLarge
	}
	data, err = readAll(make([]byte, 0, st.Size+1), func(b []byte) (int, error) {
		for {
			n, err := unix.Read(fd, b)
			if err == unix.EINTR {
				continue
			}
			return max(n, 0), err
		}
	}, func() int64 { return st.Size })
	if err != nil {
		return false, nil, nil, nil
	}
	return true, data, fi, nil
}

// statAtFast is statAt in one open (O_PATH: nothing is read).
func statAtFast(abs string) (fs.FileInfo, bool) {
	if !filepath.IsAbs(abs) || abs != filepath.Clean(abs) { // "/a/b/.." would open /a
		return nil, false
	}
	fd, err := openNoSymlinks(abs, unix.O_PATH)
	if err != nil {
		return nil, false
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		return nil, false
	}
	return statInfo(abs, &st), true
}

// statInfo is st as the fs.FileInfo os.Stat would give for abs.
func statInfo(abs string, st *unix.Stat_t) fs.FileInfo {
	return fileStat{name: filepath.Base(abs), size: st.Size, mode: fileMode(st.Mode),
		mod: time.Unix(st.Mtim.Unix()), sys: st}
}

// fileMode converts a stat mode as the os package does.
func fileMode(m uint32) fs.FileMode {
	mode := fs.FileMode(m & 0o777)
	switch m & unix.S_IFMT {
	case unix.S_IFBLK:
		mode |= fs.ModeDevice
	case unix.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	case unix.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFSOCK:
		mode |= fs.ModeSocket
	}
	if m&unix.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if m&unix.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if m&unix.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return mode
}

type fileStat struct {
	name string
	size int64
	mode fs.FileMode
	mod  time.Time
	sys  *unix.Stat_t
}

func (f fileStat) Name() string       { return f.name }
func (f fileStat) Size() int64        { return f.size }
func (f fileStat) Mode() fs.FileMode  { return f.mode }
func (f fileStat) ModTime() time.Time { return f.mod }
func (f fileStat) IsDir() bool        { return f.mode.IsDir() }
func (f fileStat) Sys() any           { return f.sys }

// readAll reads until EOF into buf, growing it as needed: when the file
// does not fit, size (its size now) sizes the buffer once, so a large
// file is not copied at every doubling.
func readAll(buf []byte, read func([]byte) (int, error), size func() int64) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			want := max(int64(2*cap(buf))+512, size()+1)
			grown := make([]byte, len(buf), want)
			copy(grown, buf)
			buf = grown
		}
		n, err := read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF || err == nil && n == 0 {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}
