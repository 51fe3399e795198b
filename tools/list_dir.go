package tools

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

const listDirMax = 500

type listDirParams struct {
	Path string `json:"path,omitempty" description:"Directory to list: relative to the workspace root (default: the root), absolute, or starting with ~."`
}

const listDirDesc = `List one directory's entries (not recursive): directories first, with type and size, skipping what .gitignore excludes. Use it to get oriented in a directory; use glob to find files by name across the tree.`

func newListDir(ws *Workspace) Tool {
	return newTyped(NameListDir, listDirDesc, ReadOnly, func(ctx context.Context, p listDirParams) (Result, error) {
		return listDir(ctx, ws, p), nil
	})
}

type dirEntry struct {
	name string
	kind string // "dir", "file", "link", "other"
	info string // size or link target
}

func listDir(ctx context.Context, ws *Workspace, p listDirParams) Result {
	abs, err := resolveCall(ctx, ws, p.Path)
	if err != nil {
		return errResult("cannot resolve %q: %v", p.Path, err)
	}
	rel := ws.Rel(abs)
	fi, err := os.Stat(abs)
	switch {
	case os.IsNotExist(err):
		return errResult("directory not found: %s (resolved to %s)", rel, abs)
	case err != nil:
		return errResult("cannot access %s: %v", rel, err)
	case !fi.IsDir():
		return errResult("%s is a file, not a directory; use read_file to read it", rel)
	}
	ents, err := readDirAt(abs)
	if err != nil {
		return errResult("cannot list %s: %v", rel, err)
	}
	list, ignored := collectEntries(ws, abs, ents)
	return Result{Output: formatEntries(rel, list, ignored)}
}

func collectEntries(ws *Workspace, dir string, ents []fs.DirEntry) (list []dirEntry, ignored int) {
	ign := ws.ignorerFor(dir)
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if (e.IsDir() && e.Name() == ".git") || ign.ignored(p, e.IsDir()) {
			ignored++
			continue
		}
		list = append(list, describeEntry(p, e))
	}
	sort.Slice(list, func(i, j int) bool {
		if (list[i].kind == "dir") != (list[j].kind == "dir") {
			return list[i].kind == "dir"
		}
		return list[i].name < list[j].name
	})
	return list, ignored
}

func describeEntry(p string, e fs.DirEntry) dirEntry {
	d := dirEntry{name: e.Name()}
	switch t := e.Type(); {
	case t.IsDir():
		d.kind, d.name = "dir", e.Name()+"/"
	case t&fs.ModeSymlink != 0:
		d.kind = "link"
		if target, err := os.Readlink(p); err == nil {
			d.info = "-> " + target
		}
	case t.IsRegular():
		d.kind = "file"
		if fi, err := e.Info(); err == nil {
			d.info = humanSize(fi.Size())
		}
	default:
		d.kind = "other"
	}
	return d
}

func formatEntries(rel string, list []dirEntry, ignored int) string {
	var b strings.Builder
	if len(list) == 0 {
		fmt.Fprintf(&b, "%s is empty", rel)
		if ignored > 0 {
			fmt.Fprintf(&b, " (%d entries ignored by .gitignore or .git)", ignored)
		}
		return b.String() + "\n"
	}
	shown := list[:min(len(list), listDirMax)]
	for _, e := range shown {
		fmt.Fprintf(&b, "%-5s %s", e.kind, e.name)
		if e.info != "" {
			fmt.Fprintf(&b, "  %s", e.info)
		}
		b.WriteByte('\n')
	}
	var notes []string
	if n := len(list) - len(shown); n > 0 {
		notes = append(notes, fmt.Sprintf("%s more entries not shown", commas(n)))
	}
	if ignored > 0 {
		notes = append(notes, fmt.Sprintf("%d ignored (.gitignore, .git)", ignored))
	}
	fmt.Fprintf(&b, "(%s: %d entries", rel, len(list))
	if len(notes) > 0 {
		b.WriteString("; " + strings.Join(notes, "; "))
	}
	b.WriteString(")\n")
	return b.String()
}
