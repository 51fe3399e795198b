package demo

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// project is the example module (example.com/greet). Its files end in
// ".txt" so keel's own build never compiles them.
//
//go:embed project
var project embed.FS

// storedSuffix is stripped from every embedded file name on extraction.
const storedSuffix = ".txt"

// Extract writes the example project into dir, creating dir if needed.
// It writes files only: no git repository, nothing outside dir.
func Extract(dir string) error {
	root, err := fs.Sub(project, "project")
	if err != nil {
		return fmt.Errorf("demo project: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create demo directory %s: %w", dir, err)
	}
	return fs.WalkDir(root, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == "." {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(strings.TrimSuffix(path, storedSuffix)))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := fs.ReadFile(root, path)
		if err != nil {
			return fmt.Errorf("demo project %s: %w", path, err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return fmt.Errorf("write demo file %s: %w", dst, err)
		}
		return nil
	})
}
