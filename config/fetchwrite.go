package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// AllowFetchDomain adds host to fetch.allow_domains in the config file at
// path (the user's: "always" in fetch's question), creating the file or
// the [fetch] table when missing. The rest of the file is kept byte for
// byte: only the allow_domains line is written anew. A host already listed
// changes nothing.
func AllowFetchDomain(path, host string) error {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real // a dotfiles manager's link stays a link
	}
	doc, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read %s: %w", path, err)
	}
	var cur struct {
		Fetch struct {
			AllowDomains []string `toml:"allow_domains"`
		} `toml:"fetch"`
	}
	if err := toml.Unmarshal(doc, &cur); err != nil {
		return fmt.Errorf("%s cannot be read as TOML, so keel did not change it: %v", path, err)
	}
	if slices.Contains(cur.Fetch.AllowDomains, host) {
		return nil
	}
	line := "allow_domains = " + quoteList(append(cur.Fetch.AllowDomains, host))
	out, err := withFetchLine(doc, line)
	if err != nil {
		return fmt.Errorf("%s: %v; add %q to [fetch] allow_domains by hand", path, err, host)
	}
	return writeFileAtomic(path, out)
}

// withFetchLine replaces the document's fetch.allow_domains key-value with
// line, or adds line to its [fetch] table, or appends a [fetch] table.
func withFetchLine(doc []byte, line string) ([]byte, error) {
	p := &unstable.Parser{}
	p.Reset(doc)
	var table []string
	insertAt := -1 // just after the [fetch] header's line
	for p.NextExpression() {
		expr := p.Expression()
		switch expr.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = keyParts(expr.Key())
			if expr.Kind == unstable.Table && slices.Equal(table, []string{"fetch"}) {
				insertAt = lineEnd(doc, keyEnd(expr.Key())) // the header's own Raw is not set
			}
		case unstable.KeyValue:
			full := append(slices.Clone(table), keyParts(expr.Key())...)
			if slices.Equal(full, []string{"fetch", "allow_domains"}) {
				r := expr.Raw
				return splice(doc, int(r.Offset), int(r.Offset+r.Length), prefixFor(table, line)), nil
			}
			if len(full) > 0 && full[0] == "fetch" && expr.Value().Kind == unstable.InlineTable {
				return nil, errors.New("its [fetch] settings are an inline table")
			}
		}
	}
	if err := p.Error(); err != nil {
		return nil, err
	}
	if insertAt >= 0 {
		return splice(doc, insertAt, insertAt, line+"\n"), nil
	}
	var b bytes.Buffer
	b.Write(doc)
	if len(doc) > 0 && !bytes.HasSuffix(doc, []byte("\n")) {
		b.WriteByte('\n')
	}
	if len(doc) > 0 {
		b.WriteByte('\n')
	}
	b.WriteString("[fetch]\n" + line + "\n")
	return b.Bytes(), nil
}

// prefixFor writes the key as the document did: "fetch.allow_domains"
// outside the [fetch] table.
func prefixFor(table []string, line string) string {
	if len(table) == 0 {
		return "fetch." + line
	}
	return line
}

func keyParts(it unstable.Iterator) []string {
	var parts []string
	for it.Next() {
		parts = append(parts, string(it.Node().Data))
	}
	return parts
}

// keyEnd is the offset just after a key's last part in the document.
func keyEnd(it unstable.Iterator) int {
	end := 0
	for it.Next() {
		r := it.Node().Raw
		end = int(r.Offset + r.Length)
	}
	return end
}

// lineEnd is the offset just after the newline that ends the line holding
// offset i (the document's end when it has none).
func lineEnd(doc []byte, i int) int {
	if j := bytes.IndexByte(doc[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(doc)
}

func splice(doc []byte, from, to int, s string) []byte {
	out := make([]byte, 0, len(doc)+len(s)+1)
	out = append(out, doc[:from]...)
	if from == len(doc) && from > 0 && doc[from-1] != '\n' {
		out = append(out, '\n')
	}
	out = append(out, s...)
	return append(out, doc[to:]...)
}

func quoteList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// writeFileAtomic replaces path with data through a temporary file in
// its directory, so a crash leaves the old file or the new one; a new
// file is private (0600), an existing one keeps its mode.
func writeFileAtomic(path string, data []byte) error {
	mode := fs.FileMode(0o600)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create the directory for %s: %w", path, err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".config-*.toml")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
