package tools

import (
	"encoding/binary"
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// openGrepFS opens the tree at base for reading. openDir checks the
// directory opened is base; below it, every open is one openat2 call
// relative to it with RESOLVE_BENEATH and RESOLVE_NO_SYMLINKS, so no
// component of the path may be a symlink or lead out, and a file costs
// one open, its reads and a close (os.Root opens each directory on the way
// and registers the file with the poller). Without openat2 (old kernels,
// seccomp filters) it falls back to os.Root.
func openGrepFS(base string) (grepFS, error) {
	r, err := openDir(base)
	if err != nil {
		return nil, err
	}
	dot, err := r.Open(".")
	if err != nil {
		r.Close()
		return nil, err
	}
	fs := &fdFS{root: r, dot: dot, fd: int(dot.Fd())}
	fd, err := fs.open(".", unix.O_DIRECTORY)
	if err != nil {
		dot.Close()
		return rootFS{root: r}, nil
	}
	unix.Close(fd)
	return fs, nil
}

// fdFS is grepFS over openat2 relative to the base's descriptor.
type fdFS struct {
	root *os.Root
	dot  *os.File // keeps fd open
	fd   int
}

func (f *fdFS) close() {
	f.dot.Close()
	f.root.Close()
}

func (f *fdFS) open(rel string, flags uint64) (int, error) {
	how := unix.OpenHow{
		Flags:   flags | unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NOCTTY | unix.O_NONBLOCK,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	for {
		fd, err := unix.Openat2(f.fd, rel, &how)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

func (f *fdFS) readFile(rel string, buf []byte) ([]byte, error) {
	fd, err := f.open(rel, 0)
	if err != nil {
		return buf, err
	}
	defer unix.Close(fd)
	return readAll(buf, func(b []byte) (int, error) {
		for {
			n, err := unix.Read(fd, b)
			switch {
			case err == unix.EINTR:
				continue
			case err == unix.EAGAIN: // a FIFO swapped in: nothing to read
				return 0, nil
			case err != nil:
				return 0, err
			}
			return n, nil
		}
	}, func() int64 {
		var st unix.Stat_t
		if unix.Fstat(fd, &st) != nil {
			return 0
		}
		return st.Size
	})
}

func (f *fdFS) readDir(rel string, ents []grepEntry, scratch []byte) ([]grepEntry, []byte, error) {
	fd, err := f.open(relOrDot(rel), unix.O_DIRECTORY)
	if err != nil {
		return ents, scratch, err
	}
	defer unix.Close(fd)
	if len(scratch) < 32<<10 {
		scratch = make([]byte, 32<<10)
	}
	for {
		n, err := unix.ReadDirent(fd, scratch)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			return ents, scratch, err
		}
		ents, err = parseDirents(fd, scratch[:n], ents)
		if err != nil {
			return ents, scratch, err
		}
	}
}

var errBadDirent = errors.New("malformed directory entry")

// parseDirents appends the entries of a getdents64 buffer: ino (8 bytes),
// off (8), reclen (2), type (1), then the NUL-terminated name.
func parseDirents(fd int, b []byte, ents []grepEntry) ([]grepEntry, error) {
	for len(b) > 0 {
		if len(b) < 19 {
			return ents, errBadDirent
		}
		reclen := int(binary.NativeEndian.Uint16(b[16:18]))
		if reclen < 19 || reclen > len(b) {
			return ents, errBadDirent
		}
		typ, name := b[18], b[19:reclen]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		b = b[reclen:]
		if s := string(name); s != "." && s != ".." {
			ents = append(ents, grepEntry{name: s, kind: direntKind(fd, s, typ)})
		}
	}
	return ents, nil
}

// direntKind maps a dirent type; file systems that leave it unknown get
// an lstat relative to the directory.
func direntKind(fd int, name string, typ byte) entryKind {
	switch typ {
	case unix.DT_REG:
		return kindFile
	case unix.DT_DIR:
		return kindDir
	case unix.DT_UNKNOWN:
		var st unix.Stat_t
		if unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
			return kindOther
		}
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFREG:
			return kindFile
		case unix.S_IFDIR:
			return kindDir
		}
	}
	return kindOther
}
