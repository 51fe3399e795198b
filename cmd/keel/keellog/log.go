package keellog

import (
	"bufio"
	"encoding/json"
	"fmt"
	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/discipline"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/keel-dev/keel/internal/termtext"
)

// NewLogCommand builds `keel log` and its subcommands. open opens the
// datalog (read-only for browsing, writable for prune); stdin answers
// prune's question; otlp starts a sender to a collector for export --otlp
// (nil: not offered).
func NewLogCommand(open func(readOnly bool) (*datalog.DB, error), stdin io.Reader, otlp func() (OTLP, error)) *cobra.Command {
	var f listFlags
	cmd := &cobra.Command{
		Use:   "log",
		Short: "List, show, analyse and export logged sessions",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			since, err := f.sinceAge()
			if err != nil {
				return err
			}
			return withDB(open, true, func(db *datalog.DB) error { return runList(cmd, db, f, since) })
		},
	}
	cmd.Flags().StringVar(&f.project, "project", "", "only sessions of this project directory")
	cmd.Flags().StringVar(&f.since, "since", "", "only sessions newer than this age (7d, 12h, 90m)")
	cmd.Flags().IntVar(&f.limit, "limit", 20, "at most this many sessions (0: all)")
	cmd.Flags().IntVar(&f.offset, "offset", 0, "skip this many newest sessions")
	cmd.Flags().BoolVar(&f.json, "json", false, "print JSON")
	cmd.AddCommand(newShowCommand(open), newStatsCommand(open), newExportCommand(open, otlp), newPruneCommand(open, stdin))
	return cmd
}

type listFlags struct {
	project, since string
	limit, offset  int
	json           bool
}

// withDB opens the datalog, runs fn and closes it.
func withDB(open func(bool) (*datalog.DB, error), readOnly bool, fn func(*datalog.DB) error) error {
	db, err := open(readOnly)
	if err != nil {
		return err
	}
	err = fn(db)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	return err
}

// ParseAge reads an age: "7d", "12h" or a Go duration ("90m", "1h30m").
func ParseAge(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if n, ok := strings.CutSuffix(s, "d"); ok {
		if days, err := strconv.Atoi(n); err == nil && days >= 0 {
			return time.Duration(days) * 24 * time.Hour, nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, usagef("%q is not an age; use a number of days or hours (7d, 12h) or a duration like 90m", s)
	}
	return d, nil
}

func projectFlag(dir string) (string, error) {
	if dir == "" {
		return "", nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("project %s: %w", dir, err)
	}
	return abs, nil
}

// sinceAge checks the list's flags before the datalog is opened and
// returns --since's age (0 when not given).
func (f listFlags) sinceAge() (time.Duration, error) {
	if f.limit < 0 || f.offset < 0 {
		return 0, usagef("--limit and --offset take a number of 0 or more")
	}
	if f.since == "" {
		return 0, nil
	}
	age, err := ParseAge(f.since)
	if err != nil {
		return 0, usagef("--since %w", err)
	}
	return age, nil
}

func runList(cmd *cobra.Command, db *datalog.DB, f listFlags, since time.Duration) error {
	filter := datalog.Filter{Limit: f.limit, Offset: f.offset}
	var err error
	if filter.Project, err = projectFlag(f.project); err != nil {
		return err
	}
	if f.since != "" {
		filter.Since = db.Now().Add(-since)
	}
	list, err := db.ListSessions(cmd.Context(), filter)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if f.json {
		return writeJSON(out, nonNil(list))
	}
	if len(list) == 0 {
		fmt.Fprintln(out, "no sessions logged yet")
		return nil
	}
	return writeSessions(out, list)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// writeJSON writes v as indented JSON, with the C1 controls escaped
// (termtext.NewJSONWriter) so printing it on a terminal is safe.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(termtext.NewJSONWriter(w))
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// abridge makes s one line of at most n runes, sanitised for a terminal
// first so escape sequences neither count nor get cut in half.
func abridge(s string, n int) string {
	s = strings.Join(strings.Fields(termtext.Sanitize(s)), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// abridgePath is abridge for a directory: its end is kept, where the
// project's name is ("…/src/keel-web"), and its start cut.
func abridgePath(s string, n int) string {
	s = strings.Join(strings.Fields(termtext.Sanitize(s)), " ")
	if r := []rune(s); len(r) > n {
		return "…" + string(r[len(r)-n+1:])
	}
	return s
}

// tokens is a count of tokens in at most 5 columns: "9876", "48k",
// "1.2M".
func tokens(n int) string {
	if n >= 999_500 {
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	}
	if n >= 10_000 {
		return fmt.Sprintf("%dk", (n+500)/1000)
	}
	return strconv.Itoa(n)
}

// count is n and a noun, with keel's one plural rule: "1 round", "2
// rounds" (discipline.Plural).
func count(n int, noun string) string { return discipline.Plural(n, noun) }

// money is an amount of dollars as the log shows it. The datalog stores 0
// when the model had no price: tokens used at no cost read "price unknown",
// not a misleading $0.0000.
func money(c float64, tokens int) string {
	if !datalog.CostKnown(c, tokens) {
		return "price unknown"
	}
	return fmt.Sprintf("$%.4f", c)
}

func newPruneCommand(open func(bool) (*datalog.DB, error), stdin io.Reader) *cobra.Command {
	var olderThan string
	var yes bool
	cmd := &cobra.Command{
		Use:   "prune",
		Short: "Delete sessions older than an age",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			age, err := ParseAge(olderThan)
			if err != nil {
				return usagef("--older-than %w", err)
			}
			return withDB(open, false, func(db *datalog.DB) error { return runPrune(cmd, db, stdin, age, yes) })
		},
	}
	cmd.Flags().StringVar(&olderThan, "older-than", "30d", "delete sessions started longer ago than this (30d, 12h)")
	cmd.Flags().BoolVar(&yes, "yes", false, "do not ask")
	return cmd
}

func runPrune(cmd *cobra.Command, db *datalog.DB, stdin io.Reader, age time.Duration, yes bool) error {
	cutoff := db.Now().Add(-age)
	n, err := db.CountBefore(cmd.Context(), cutoff)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if n == 0 {
		fmt.Fprintln(out, "no sessions to prune")
		return nil
	}
	if !yes {
		fmt.Fprintf(out, "Delete %s started before %s? [y/N] ", count(n, "session"), cutoff.Local().Format("2006-01-02 15:04"))
		line, _ := bufio.NewReader(stdin).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
			fmt.Fprintln(out, "nothing deleted")
			return nil
		}
	}
	deleted, err := db.Prune(cmd.Context(), cutoff)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "deleted %d session(s)\n", deleted)
	return nil
}
