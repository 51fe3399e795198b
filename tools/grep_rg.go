package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// rgArgs builds an rg command line whose file selection matches searchGo:
// hidden files searched, .git skipped, .gitignore honoured even outside a
// git repository, no user config, global excludes or .ignore files.
func rgArgs(q grepQuery) []string {
	args := []string{"--json", "--no-config", "--hidden", "--glob", "!.git",
		"--no-require-git", "--no-ignore-global", "--no-ignore-dot"}
	if q.params.IgnoreCase {
		args = append(args, "--ignore-case")
	}
	if q.context > 0 {
		args = append(args, "--context", strconv.Itoa(q.context))
	}
	if q.include != "" {
		// A file type, not --glob: a --glob include overrides .gitignore
		// for the files it names; a type keeps the ignore rules.
		args = append(args, "--type-add", "keelinclude:"+q.include, "--type", "keelinclude")
	}
	return append(args, "--regexp", q.params.Pattern, "--", rgTarget(q))
}

// rgDir is where rg runs: the searched directory, so include globs with a
// slash are relative to it as in searchGo; rgTarget is what it searches.
func rgDir(q grepQuery) string {
	if fi, err := os.Stat(q.base); err == nil && fi.IsDir() {
		return q.base
	}
	return filepath.Dir(q.base)
}

func rgTarget(q grepQuery) string {
	if rgDir(q) == q.base {
		return "."
	}
	return filepath.Base(q.base)
}

// rgMessage is the subset of rg's JSON lines keel reads.
type rgMessage struct {
	Type string `json:"type"`
	Data struct {
		Path       rgText `json:"path"`
		Lines      rgText `json:"lines"`
		LineNumber int    `json:"line_number"`
	} `json:"data"`
}

// rgText is rg's representation of bytes: text, or base64 when not UTF-8.
type rgText struct {
	Text  string `json:"text"`
	Bytes string `json:"bytes"`
}

func (t rgText) String() string {
	if t.Bytes != "" {
		if b, err := base64.StdEncoding.DecodeString(t.Bytes); err == nil {
			return string(b)
		}
	}
	return t.Text
}

// searchRG runs ripgrep and groups its JSON output by file. truncated is
// true when it stopped reading after grepMaxCollect matches.
func searchRG(parent context.Context, rg string, q grepQuery) ([]grepFile, bool, error) {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	cmd := exec.CommandContext(ctx, rg, rgArgs(q)...)
	cmd.Dir = rgDir(q)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, false, err
	}
	if err := cmd.Start(); err != nil {
		return nil, false, fmt.Errorf("start rg: %w", err)
	}
	files, truncated, perr := parseRG(out)
	for i := range files {
		files[i].path = filepath.Join(cmd.Dir, files[i].path)
	}
	if truncated {
		cancel() // enough counted: stop rg
	}
	werr := cmd.Wait()
	if perr != nil {
		return nil, false, perr
	}
	var exit *exec.ExitError
	if werr != nil && !truncated && errors.As(werr, &exit) && exit.ExitCode() == 2 && len(files) == 0 {
		return nil, false, fmt.Errorf("rg: %s", strings.TrimSpace(stderr.String()))
	}
	if werr != nil && !truncated && !errors.As(werr, &exit) {
		return nil, false, fmt.Errorf("rg: %w", werr)
	}
	return files, truncated, parent.Err()
}

func parseRG(r io.Reader) ([]grepFile, bool, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var files []grepFile
	var cur *grepFile
	matches := 0
	for sc.Scan() {
		var m rgMessage
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			return nil, false, fmt.Errorf("reading rg output: %w", err)
		}
		switch m.Type {
		case "begin":
			files = append(files, grepFile{path: m.Data.Path.String()})
			cur = &files[len(files)-1]
		case "match", "context":
			if cur == nil {
				continue
			}
			cur.lines = append(cur.lines, grepLine{num: m.Data.LineNumber, text: m.Data.Lines.String(), match: m.Type == "match"})
			if m.Type == "match" {
				if matches++; matches >= grepMaxCollect {
					return files, true, nil
				}
			}
		}
	}
	return files, false, sc.Err()
}
