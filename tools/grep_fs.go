package tools

import (
	"io"
	"io/fs"
	"os"
)

// grepFS reads a tree for the Go grep engine, relative to a directory
// opened once at the search's base: nothing it opens can be reached
// through a symlink, so a swapped one cannot lead out of the base. Its
// methods are safe for concurrent use.
type grepFS interface {
	// readDir appends rel's entries to ents; scratch is a buffer it may use.
	readDir(rel string, ents []grepEntry, scratch []byte) ([]grepEntry, []byte, error)
	// readFile reads the regular file rel into buf, growing it as needed.
	readFile(rel string, buf []byte) ([]byte, error)
	close()
}

// grepEntry is a directory entry's name and kind.
type grepEntry struct {
	name string
	kind entryKind
}

type entryKind uint8

const (
	kindOther entryKind = iota // symlinks, devices, sockets: not searched
	kindFile
	kindDir
)

// rootFS is grepFS over os.Root, for systems without openat2.
type rootFS struct{ root *os.Root }

func relOrDot(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}

func (r rootFS) readDir(rel string, ents []grepEntry, scratch []byte) ([]grepEntry, []byte, error) {
	f, err := r.root.Open(relOrDot(rel))
	if err != nil {
		return ents, scratch, err
	}
	defer f.Close()
	list, err := f.ReadDir(-1)
	for _, e := range list {
		ents = append(ents, grepEntry{name: e.Name(), kind: kindOf(e.Type())})
	}
	return ents, scratch, err
}

func kindOf(m fs.FileMode) entryKind {
	switch {
	case m.IsRegular():
		return kindFile
	case m.IsDir():
		return kindDir
	}
	return kindOther
}

func (r rootFS) readFile(rel string, buf []byte) ([]byte, error) {
	f, err := r.root.Open(rel)
	if err != nil {
		return buf, err
	}
	defer f.Close()
	return readAll(buf, f.Read, func() int64 {
		if fi, err := f.Stat(); err == nil {
			return fi.Size()
		}
		return 0
	})
}

func (r rootFS) close() { r.root.Close() }

// readAll reads until EOF into buf (a new one of minReadBuf when buf has
// no capacity), growing it as needed: when a file does not fit, size (the
// file's size now) sizes the buffer once, so a large file is not copied at
// every doubling.
func readAll(buf []byte, read func([]byte) (int, error), size func() int64) ([]byte, error) {
	if cap(buf) == 0 {
		buf = make([]byte, 0, minReadBuf)
	}
	for {
		if len(buf) == cap(buf) {
			want := max(int64(2*cap(buf)), size()+1)
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

const minReadBuf = 256 << 10
