package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// keel mcp add and keel mcp remove edit a configuration file as text, as
// claude mcp add does its JSON: an added server is one [mcp.servers.NAME]
// table appended at the end, a removed one's tables are cut out, and the
// rest of the file (comments, order, other servers) is left as it was.
// Each edit is checked by decoding the result before it replaces the file.

// mcpServerName is a name keel mcp add accepts: its tools are named
// mcp__NAME__TOOL, so no double underscore.
var mcpServerName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)

// AddMCPServer adds s as [mcp.servers.NAME] to the file at path (created
// with its directory when missing). A name the file already defines is
// refused: remove it first.
func AddMCPServer(path string, s MCPServer) error {
	if !mcpServerName.MatchString(s.Name) || strings.Contains(s.Name, "__") {
		return fmt.Errorf("%q is not a server name: use letters, digits, - and _ (no __), at most 64", s.Name)
	}
	if (s.Command == "") == (s.URL == "") {
		return errors.New("a server needs a command (keel mcp add NAME -- CMD ARGS...) or a URL (--url URL), not both")
	}
	doc, mode, err := readConfigText(path)
	if err != nil {
		return err
	}
	if servers, err := fileServers(doc); err != nil {
		return fmt.Errorf("%s cannot be edited: %w", path, err)
	} else if slices.Contains(servers, s.Name) {
		return fmt.Errorf("%s already defines the MCP server %q; keel mcp remove %s first", path, s.Name, s.Name)
	}
	if len(doc) > 0 && !bytes.HasSuffix(doc, []byte("\n")) {
		doc = append(doc, '\n')
	}
	if len(doc) > 0 {
		doc = append(doc, '\n')
	}
	doc = append(doc, serverTable(s)...)
	return writeChecked(path, doc, mode, func(servers []string) bool { return slices.Contains(servers, s.Name) })
}

// RemoveMCPServer cuts the [mcp.servers.NAME] table (and its env and
// headers tables) out of the file at path.
func RemoveMCPServer(path, name string) error {
	doc, mode, err := readConfigText(path)
	if err != nil {
		return err
	}
	servers, err := fileServers(doc)
	if err != nil {
		return fmt.Errorf("%s cannot be edited: %w", path, err)
	}
	if !slices.Contains(servers, name) {
		return fmt.Errorf("%s defines no MCP server %q (it has: %s)", path, name, orNone(servers))
	}
	out, cut := cutServer(doc, name)
	if !cut {
		return fmt.Errorf("the MCP server %q in %s is not written as an [mcp.servers.%s] table; remove it by hand", name, path, name)
	}
	return writeChecked(path, out, mode, func(servers []string) bool { return !slices.Contains(servers, name) })
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// readConfigText reads the file, or nothing when it does not exist yet.
func readConfigText(path string) ([]byte, fs.FileMode, error) {
	doc, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0o600, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("read %s: %w", path, err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, 0, err
	}
	return doc, fi.Mode().Perm(), nil
}

// fileServers lists the server names a document defines.
func fileServers(doc []byte) ([]string, error) {
	var v struct {
		MCP struct {
			Servers map[string]any `toml:"servers"`
		} `toml:"mcp"`
	}
	if err := toml.Unmarshal(doc, &v); err != nil {
		return nil, err
	}
	var names []string
	for n := range v.MCP.Servers {
		names = append(names, n)
	}
	slices.Sort(names)
	return names, nil
}

// writeChecked replaces the file with doc once doc decodes and ok holds
// for its servers; the file is written whole through a temporary one.
func writeChecked(path string, doc []byte, mode fs.FileMode, ok func([]string) bool) error {
	servers, err := fileServers(doc)
	if err != nil || !ok(servers) {
		return fmt.Errorf("keel could not edit %s safely (the result would not read back: %v); edit it by hand", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".config-*.toml")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(doc); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// serverTable is s as an [mcp.servers.NAME] table.
func serverTable(s MCPServer) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "[mcp.servers.%s]\n", s.Name)
	if s.Command != "" {
		fmt.Fprintf(&b, "command = %s\n", strconv.Quote(s.Command))
		if len(s.Args) > 0 {
			q := make([]string, len(s.Args))
			for i, a := range s.Args {
				q[i] = strconv.Quote(a)
			}
			fmt.Fprintf(&b, "args = [%s]\n", strings.Join(q, ", "))
		}
	} else {
		fmt.Fprintf(&b, "url = %s\n", strconv.Quote(s.URL))
	}
	writeStringTable(&b, "env", s.Env)
	writeStringTable(&b, "headers", s.Headers)
	return b.Bytes()
}

func writeStringTable(b *bytes.Buffer, key string, m map[string]string) {
	if len(m) == 0 {
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = strconv.Quote(k) + " = " + strconv.Quote(m[k])
	}
	fmt.Fprintf(b, "%s = { %s }\n", key, strings.Join(parts, ", "))
}
