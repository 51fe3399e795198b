package editor

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPastedImagePath(t *testing.T) {
	home, _ := os.UserHomeDir()
	tests := []struct {
		in, want string
	}{
		{"/tmp/a.png", "/tmp/a.png"},
		{"  /tmp/a.PNG\n", "/tmp/a.PNG"},
		{"'/tmp/my shot.png'", "/tmp/my shot.png"},
		{`"/tmp/my shot.jpg"`, "/tmp/my shot.jpg"},
		{`/tmp/my\ shot\ \(1\).webp`, "/tmp/my shot (1).webp"},
		{"file:///tmp/a%20b.gif", "/tmp/a b.gif"},
		{"~/Pictures/x.jpeg", filepath.Join(home, "Pictures/x.jpeg")},
		{"a.png", ""},                 // relative: @a.png is the way
		{"/tmp/a.txt", ""},            // not an image's name
		{"/tmp/a.png /tmp/b.png", ""}, // two paths
		{"look at /tmp/a.png", ""},
		{"/tmp/a.png\n/tmp/b.png", ""},
		{"https://example.com/a.png", ""},
	}
	for _, tt := range tests {
		got, ok := pastedImagePath(tt.in)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("pastedImagePath(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
}

func FuzzPastedImagePath(f *testing.F) {
	for _, s := range []string{"/tmp/a.png", "'/x y.png'", "file:///a.gif", `/a\ b.webp`, "~/x.jpg"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if p, ok := pastedImagePath(s); ok && (!filepath.IsAbs(p) || p != filepath.Clean(p)) {
			t.Errorf("pastedImagePath(%q) = %q: not a clean absolute path", s, p)
		}
	})
}
