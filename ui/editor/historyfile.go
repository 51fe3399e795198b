package editor

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	tea "charm.land/bubbletea/v2"
)

// Prompt history outlives the TUI: each prompt sent is appended, in a
// command, as one JSON line to a file per workspace under the user's
// state directory, and a new TUI reads the file in a command at start, so
// ↑ recalls what was typed in earlier launches. A file that grew past
// maxHistory entries by half again is rewritten with the newest
// maxHistory when it is read.

// maxHistory is how many prompts a workspace's history keeps.
const maxHistory = 1000

// maxHistoryEntry is the largest prompt (with its pastes) kept; a larger
// one is left out of the file, not cut.
const maxHistoryEntry = 64 << 10

// HistoryEntry is one prompt as the box showed it, with the text of the
// pastes its placeholders stand for.
type HistoryEntry struct {
	Text   string  `json:"text"`
	Pastes []paste `json:"pastes,omitempty"`
}

// MarshalJSON and UnmarshalJSON keep a paste's fields unexported in Go.
func (p paste) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Placeholder string `json:"placeholder"`
		Text        string `json:"text"`
	}{p.placeholder, p.text})
}

func (p *paste) UnmarshalJSON(b []byte) error {
	var v struct{ Placeholder, Text string }
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	p.placeholder, p.text = v.Placeholder, v.Text
	return nil
}

// HistoryFile is the prompt history file for a workspace:
// $XDG_STATE_HOME/keel/history/<hash of the workspace's path>.jsonl, else
// under ~/.local/state; "" when neither variable is set. A nil getenv
// means os.Getenv.
func HistoryFile(getenv func(string) string, workspace string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	dir := getenv("XDG_STATE_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		home := getenv("HOME")
		if home == "" {
			return ""
		}
		dir = filepath.Join(home, ".local", "state")
	}
	sum := sha256.Sum256([]byte(filepath.Clean(workspace)))
	return filepath.Join(dir, "keel", "history", hex.EncodeToString(sum[:8])+".jsonl")
}

// HistoryMsg carries the history read at start (the root model passes it
// to HistoryLoaded).
type HistoryMsg struct {
	entries []HistoryEntry
	err     error
}

// HistoryLoaded puts the prompts read at start before this run's; the
// error, when the file could not be read, is for the user (once).
func (in *Model) HistoryLoaded(msg HistoryMsg) error {
	in.LoadHistory(msg.entries)
	return msg.err
}

// HistorySavedMsg reports an append: Err is nil, or why the prompt could
// not be kept.
type HistorySavedMsg struct{ Err error }

// LoadHistoryCmd reads a history file; a missing file is an empty
// history. path "" reads nothing.
func LoadHistoryCmd(path string) tea.Cmd {
	if path == "" {
		return nil
	}
	return func() tea.Msg {
		entries, err := readHistory(path)
		return HistoryMsg{entries: entries, err: err}
	}
}

// readHistory reads the newest maxHistory entries of a file, skipping
// lines that do not parse, and trims the file when it grew too long.
func readHistory(path string) ([]HistoryEntry, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the prompt history: %w", err)
	}
	var entries []HistoryEntry
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 2*maxHistoryEntry)
	lines := 0
	for sc.Scan() {
		lines++
		var e HistoryEntry
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Text != "" {
			entries = append(entries, e)
		}
	}
	if len(entries) > maxHistory {
		entries = entries[len(entries)-maxHistory:]
	}
	if lines > maxHistory+maxHistory/2 {
		return entries, rewriteHistory(path, entries)
	}
	return entries, nil
}

// rewriteHistory replaces the file with entries, through a temporary
// file renamed over it, so a reader never sees half a file.
func rewriteHistory(path string, entries []HistoryEntry) error {
	var buf bytes.Buffer
	for _, e := range entries {
		line, err := json.Marshal(e)
		if err != nil {
			return err
		}
		buf.Write(append(line, '\n'))
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o600); err != nil {
		return fmt.Errorf("trim the prompt history: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("trim the prompt history: %w", err)
	}
	return nil
}

// AppendHistoryCmd appends one entry to the file (created private, in a
// private directory). path "" saves nothing.
func AppendHistoryCmd(path string, e HistoryEntry) tea.Cmd {
	if path == "" {
		return nil
	}
	return func() tea.Msg {
		return HistorySavedMsg{Err: appendHistory(path, e)}
	}
}

func appendHistory(path string, e HistoryEntry) error {
	line, err := json.Marshal(e)
	if err != nil || len(line) > maxHistoryEntry {
		return err // too large to keep: left out, nothing to report
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("save the prompt history: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("save the prompt history: %w", err)
	}
	_, err = f.Write(append(line, '\n')) // one write: appends from two keels do not interleave
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("save the prompt history: %w", err)
	}
	return nil
}
