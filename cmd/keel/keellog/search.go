package keellog

import (
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/keel-dev/keel/agent/datalog"
)

// searchFlags are keel log search's options.
type searchFlags struct {
	project string
	all     bool
	json    bool
	limit   int
}

// NewSearchCommand builds `keel log search QUERY`: the past sessions'
// prompts, answers, plan goals and tool calls that match, best first.
// here returns the project root keel records for the working directory,
// the default scope.
func NewSearchCommand(open func(readOnly bool) (*datalog.DB, error), here func() (string, error)) *cobra.Command {
	var f searchFlags
	cmd := &cobra.Command{
		Use:   "search QUERY",
		Short: "Search past sessions' prompts, answers, plan goals and tool calls",
		Long: `Search the datalog like the recall tool does: every word must match, else any word;
"quoted phrases" and prefix* work. Sessions of this project only, unless --project or --all.`,
		Args: someWords,
		RunE: func(cmd *cobra.Command, args []string) error {
			q := datalog.SearchQuery{Text: strings.Join(args, " "), Limit: f.limit}
			var err error
			if q.Project, err = searchScope(f, here); err != nil {
				return err
			}
			return withDB(open, true, func(db *datalog.DB) error {
				hits, err := db.Search(cmd.Context(), q)
				if err != nil {
					return err
				}
				return printHits(cmd.OutOrStdout(), hits, f)
			})
		},
	}
	cmd.Flags().StringVar(&f.project, "project", "", "search this project directory's sessions (default: the current project)")
	cmd.Flags().BoolVar(&f.all, "all", false, "search every project's sessions")
	cmd.Flags().BoolVar(&f.json, "json", false, "print JSON")
	cmd.Flags().IntVar(&f.limit, "limit", datalog.DefaultSearchLimit, fmt.Sprintf("at most this many matches (up to %d)", datalog.MaxSearchLimit))
	return cmd
}

// searchScope is the project searched: --all none, --project its
// directory, else the current project.
func searchScope(f searchFlags, here func() (string, error)) (string, error) {
	switch {
	case f.all && f.project != "":
		return "", usagef("--all and --project contradict each other; give one")
	case f.all:
		return "", nil
	case f.project != "":
		return projectFlag(f.project)
	}
	return here()
}

// matchMark is a **mark** around a matched word: the snippet marks whole
// runs of letters and digits only, so a "**" in the text itself (a glob's
// **/*.go, Python's **kwargs) is not one and stays.
var matchMark = regexp.MustCompile(`\*\*([\p{L}\p{N}]+)\*\*`)

// unmarked is a snippet without the **marks** around the words that
// matched: they are markdown for the recall tool's model, and a terminal
// would print them literally.
func unmarked(snippet string) string { return matchMark.ReplaceAllString(snippet, "$1") }

// printHits prints one line per match: date, session id, kind (and the
// project with --all), and the snippet, sanitised for the terminal.
func printHits(w io.Writer, hits []datalog.Hit, f searchFlags) error {
	if f.json {
		return writeJSON(w, nonNil(hits))
	}
	if len(hits) == 0 {
		msg := "no past session matches"
		if !f.all {
			msg += " (--all searches every project)"
		}
		_, err := fmt.Fprintln(w, msg)
		return err
	}
	return writeTable(w, func(tw io.Writer) {
		head := "DATE\tSESSION\tKIND\t"
		if f.all {
			head += "PROJECT\t"
		}
		fmt.Fprintln(tw, head+"MATCH")
		for _, h := range hits {
			fmt.Fprintf(tw, "%s\t%s\t%s\t", h.At.Local().Format("2006-01-02 15:04"), datalog.ShortID(h.SessionID), h.Kind)
			if f.all {
				fmt.Fprintf(tw, "%s\t", abridgePath(h.Project, 30))
			}
			fmt.Fprintf(tw, "%s\n", abridge(unmarked(h.Snippet), 160))
		}
	})
}
