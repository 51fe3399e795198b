package tools

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestFastPathMatchesOS checks readAt and statAt, which take one openat2
// call when they can, give what the os package says of the same file,
// and that the fast path serves what it should and nothing else.
func TestFastPathMatchesOS(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plain := write("plain.go", "package p\n", 0o644)
	empty := write("empty.txt", "", 0o600)
	setuid := write("tool.sh", "#!/bin/sh\n", 0o755|os.ModeSetuid)
	sub := filepath.Join(dir, "sub")
	mustMkdir(t, sub)
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	link := filepath.Join(dir, "link.go")
	if err := os.Symlink("plain.go", link); err != nil {
		t.Fatal(err)
	}
	linkedDir := filepath.Join(dir, "linked")
	if err := os.Symlink("sub", linkedDir); err != nil {
		t.Fatal(err)
	}
	write("sub/inner.txt", "inner\n", 0o644)

	for _, tc := range []struct {
		name string
		path string
		fast bool // the one-call path serves it
	}{
		{"regular file", plain, true},
		{"empty file", empty, true},
		{"setuid file", setuid, true},
		{"directory", sub, true},
		{"FIFO (must not block)", fifo, true},
		{"symlink as the last name", link, false},
		{"symlink on the way", filepath.Join(linkedDir, "inner.txt"), false},
		{"missing file", filepath.Join(dir, "nope.go"), false},
		{"relative path", "plain.go", false},
		{"an unclean path", filepath.Join(dir, "sub") + "/..", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ok, data, fi, err := readAtFast(tc.path, 0)
			if ok != tc.fast {
				t.Fatalf("readAtFast served it: %v, want %v (err %v)", ok, tc.fast, err)
			}
			if _, sok := statAtFast(tc.path); sok != tc.fast {
				t.Fatalf("statAtFast served it: %v, want %v", sok, tc.fast)
			}
			if !ok {
				return
			}
			want, lerr := os.Lstat(tc.path)
			if err != nil || lerr != nil {
				t.Fatalf("readAtFast err %v, Lstat err %v", err, lerr)
			}
			sfi, _ := statAtFast(tc.path)
			for _, got := range []fs.FileInfo{fi, sfi} {
				if got.Name() != want.Name() || got.Mode() != want.Mode() || got.IsDir() != want.IsDir() ||
					!got.ModTime().Equal(want.ModTime()) || (want.Mode().IsRegular() && got.Size() != want.Size()) {
					t.Errorf("got %s %v %d %v, os says %s %v %d %v", got.Name(), got.Mode(), got.Size(), got.ModTime(),
						want.Name(), want.Mode(), want.Size(), want.ModTime())
				}
			}
			if want.Mode().IsRegular() {
				body, _ := os.ReadFile(tc.path)
				if string(data) != string(body) {
					t.Errorf("read %q, the file holds %q", data, body)
				}
			} else if data != nil {
				t.Errorf("read %d bytes of a %v", len(data), want.Mode())
			}
		})
	}

	t.Run("socket", func(t *testing.T) {
		// openat2 cannot open a socket (ENXIO): the os.Root path answers.
		if ok, _, _, _ := readAtFast(sock, 0); ok {
			t.Fatal("readAtFast opened a socket")
		}
		if fi, ok := statAtFast(sock); !ok || fi.Mode()&fs.ModeSocket == 0 {
			t.Fatalf("statAtFast(socket) = %v, %v", fi, ok)
		}
	})

	t.Run("limit", func(t *testing.T) {
		big := write("big.txt", "0123456789", 0o644)
		ok, data, fi, err := readAtFast(big, 5)
		if !ok || !errors.Is(err, errTooLarge) || data != nil || fi.Size() != 10 {
			t.Fatalf("over the limit: ok %v, err %v, %d bytes, size %d", ok, err, len(data), fi.Size())
		}
	})

	t.Run("readAt falls back with the same answers", func(t *testing.T) {
		_, _, err := readAt(filepath.Join(dir, "nope.go"), 0)
		if !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("missing file: %v, want not exist", err)
		}
		data, _, err := readAt(link, 0) // a symlink in the directory: os.Root follows it
		if err != nil || string(data) != "package p\n" {
			t.Errorf("symlink to a sibling: %q, %v", data, err)
		}
	})

	t.Run("a kernel without openat2", func(t *testing.T) {
		noOpenat2.Store(true)
		defer noOpenat2.Store(false)
		if ok, _, _, _ := readAtFast(plain, 0); ok {
			t.Fatal("the fast path ran without openat2")
		}
		if data, fi, err := readAt(plain, 0); err != nil || string(data) != "package p\n" || fi.Size() != 10 {
			t.Fatalf("readAt through os.Root = %q, %v", data, err)
		}
	})

	t.Run("FIFO does not block", func(t *testing.T) {
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, _, _ = readAt(fifo, 0)
		}()
		select {
		case <-done:
		case <-time.After(time.Minute):
			t.Fatal("readAt blocked on a FIFO")
		}
	})
}
