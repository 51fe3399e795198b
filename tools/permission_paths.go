package tools

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/keel-dev/keel/tools/shell"
)

// Protected reports a path keel's own configuration and instructions live
// at (.keel/, AGENTS.md): a write there could turn on --yolo or change
// what the model is told on the next run, so it always asks.
func Protected(abs string) bool {
	for _, part := range strings.Split(filepath.ToSlash(abs), "/") {
		if part == ".keel" {
			return true
		}
	}
	return filepath.Base(abs) == "AGENTS.md"
}

// errUnknownPath is a path keel cannot know before the command runs.
var errUnknownPath = errors.New("unknown path")

// commandPath resolves a path a command names, relative to one of the
// directories it may run in, the way the kernel will: symlinks and ".."
// physically, left to right, as far as the path exists.
func (p *Policy) commandPath(workdir, dir string, w shell.Word) (string, error) {
	if w.Dynamic || dir == shell.UnknownDir && !absolute(w.Value) {
		return "", errUnknownPath
	}
	base, err := p.commandDir(workdir, dir)
	if err != nil {
		return "", err
	}
	v := w.Value
	if w.Glob {
		v = globDir(v)
	}
	switch {
	case v == "~" || strings.HasPrefix(v, "~/"):
		if p.ws.home == "" {
			return "", errUnknownPath
		}
		return physical(p.ws.home, strings.TrimPrefix(v[1:], "/"))
	case filepath.IsAbs(v):
		return physical("/", v)
	}
	return physical(base, v)
}

// commandDir is the directory a command runs in: workdir after the cd
// steps in dir (bash's logical cd, then resolved).
func (p *Policy) commandDir(workdir, dir string) (string, error) {
	switch {
	case dir == shell.UnknownDir:
		return "", errUnknownPath
	case dir == "":
		return workdir, nil
	case dir == "~" || strings.HasPrefix(dir, "~/"):
		if p.ws.home == "" {
			return "", errUnknownPath
		}
		return resolveExisting(filepath.Join(p.ws.home, dir[1:]))
	case filepath.IsAbs(dir):
		return resolveExisting(filepath.Clean(dir))
	}
	return resolveExisting(filepath.Join(workdir, dir))
}

func absolute(v string) bool {
	return filepath.IsAbs(v) || v == "~" || strings.HasPrefix(v, "~/")
}

// globDir is the literal directory part of a glob pattern, the directory
// its matches are under ("src" for src/*.go, "." for *.go).
func globDir(pattern string) string {
	i := strings.IndexAny(pattern, "*?[{")
	if i < 0 {
		return pattern
	}
	d := filepath.Dir(pattern[:i] + "x")
	return d
}

// physical resolves rel under base component by component, following
// symlinks (dangling ones too: a write creates their target) and ".." as
// the kernel does; from the first missing component on, the rest is
// joined lexically.
func physical(base, rel string) (string, error) {
	return physicalN(base, rel, 0)
}

func physicalN(cur, rel string, links int) (string, error) {
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for i, part := range parts {
		switch part {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, part)
		fi, err := os.Lstat(next)
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscallENOTDIR):
			return filepath.Join(append([]string{next}, parts[i+1:]...)...), nil
		case err != nil:
			return "", err
		case fi.Mode()&fs.ModeSymlink != 0:
			if links > 40 {
				return "", errors.New("too many levels of symbolic links")
			}
			target, err := os.Readlink(next)
			if err != nil {
				return "", err
			}
			rest := target + "/" + strings.Join(parts[i+1:], "/")
			if filepath.IsAbs(target) {
				return physicalN("/", rest, links+1)
			}
			return physicalN(cur, rest, links+1)
		default:
			cur = next
		}
	}
	return cur, nil
}

// globMayMatch reports whether a glob could produce a path with a
// component named name (.git, .keel): bash's * never matches a leading dot.
func globMayMatch(pattern, name string) bool {
	for _, comp := range strings.Split(filepath.ToSlash(pattern), "/") {
		if comp == name {
			return true
		}
		if !strings.ContainsAny(comp, "*?[") {
			continue
		}
		if strings.HasPrefix(name, ".") && strings.HasPrefix(comp, "*") {
			continue
		}
		if ok, _ := filepath.Match(comp, name); ok {
			return true
		}
	}
	return false
}
