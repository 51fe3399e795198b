package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestLandlockConfinesWrites(t *testing.T) {
	if err := Check(); err != nil {
		t.Skipf("no Landlock here: %v", err)
	}
	base := t.TempDir()
	ws, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	for _, d := range []string{ws, outside, filepath.Join(ws, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "keep"), []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := Spec{Landlock: true, Writable: []string{ws, "/dev/null"}}
	tests := []struct {
		script string
		ok     bool
	}{
		{"echo x > a && mkdir -p d/e && mv a d/e/b && ln -s b d/l && rm -r d", true},
		{"echo x > sub/f && mv sub/f f2 && cat f2", true},
		{"echo x > /dev/null && echo y >/dev/stderr", true},
		{"ls " + outside + " && cat " + outside + "/keep", true},
		{"echo x > " + outside + "/new", false},
		{"echo x >> " + outside + "/keep", false},
		{": > " + outside + "/keep", false},
		{"rm " + outside + "/keep", false},
		{"mkdir " + outside + "/d", false},
		{"mv " + outside + "/keep " + ws + "/stolen", false},
		{"ln -s /etc/passwd " + outside + "/l", false},
		{"bash -c 'echo x > " + outside + "/nested'", false},
	}
	for _, tc := range tests {
		out, code := run(t, context.Background(), spec, ws, tc.script)
		if (code == 0) != tc.ok {
			t.Errorf("%q: exit %d (want success %v): %s", tc.script, code, tc.ok, out)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "keep")); string(b) != "keep\n" {
		t.Errorf("the file outside changed: %q", b)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 1 {
		t.Errorf("entries appeared outside: %v", ents)
	}
}

func TestCommandCannotReadKeelEnviron(t *testing.T) {
	if err := HideProcess(); err != nil {
		t.Fatal(err)
	}
	me := strconv.Itoa(os.Getpid())
	out, code := run(t, context.Background(), Spec{}, t.TempDir(), "cat /proc/"+me+"/environ >/dev/null && echo READABLE")
	if code == 0 || strings.Contains(out, "READABLE") {
		t.Errorf("a command read keel's environment: exit %d, %q", code, out)
	}
}
