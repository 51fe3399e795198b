package keellog

import (
	"fmt"
	"github.com/keel-dev/keel/agent/datalog"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/keel-dev/keel/internal/termtext"
)

func newStatsCommand(open func(bool) (*datalog.DB, error)) *cobra.Command {
	var project string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "stats [ID]",
		Short: "Figures for tuning the agent, over one session or a project",
		Args:  optionalSessionID,
		RunE: func(cmd *cobra.Command, args []string) error {
			return withDB(open, true, func(db *datalog.DB) error {
				var scope datalog.StatsScope
				var err error
				if len(args) == 1 {
					scope.SessionID, err = db.ResolveID(cmd.Context(), args[0])
				} else {
					scope.Project, err = projectFlag(project)
				}
				if err != nil {
					return err
				}
				st, err := db.Stats(cmd.Context(), scope)
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSON(cmd.OutOrStdout(), st)
				}
				printStats(cmd.OutOrStdout(), st)
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&project, "project", "", "all sessions of this project directory (default: all sessions)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// printStats prints the figures; paths and commands are the model's, so
// the output is sanitised (termtext).
func printStats(w io.Writer, st *datalog.Stats) {
	w = termtext.NewWriter(w)
	fmt.Fprintf(w, "%d session(s), %d task(s)\n\n", st.Sessions, len(st.Tasks))
	tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tTASK\tROUNDS\tTOOLS\tEDITS\tFIRST EDIT\tTOKENS IN\tOUT\tCOST")
	for _, t := range st.Tasks {
		first := "-"
		if t.Edits > 0 {
			first = dur(t.FirstEdit)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t%d\t%d\t%s\n", datalog.ShortID(t.SessionID), t.Task, t.Rounds, t.ToolCalls,
			t.Edits, first, t.TokensIn, t.TokensOut, money(t.Cost, t.TokensIn+t.TokensOut))
	}
	tw.Flush()
	section(w, "re-reads of the same region", len(st.ReReads), func(tw io.Writer) {
		for _, r := range st.ReReads {
			fmt.Fprintf(tw, "%s\ttask %d\t%s offset %d limit %d\t%d reads\n", datalog.ShortID(r.SessionID), r.Task, termtext.Sanitize(r.Path), r.Offset, r.Limit, r.Reads)
		}
	})
	section(w, "repeated identical commands", len(st.RepeatedCommands), func(tw io.Writer) {
		for _, r := range st.RepeatedCommands {
			fmt.Fprintf(tw, "%s\ttask %d\t%s\t%d runs\n", datalog.ShortID(r.SessionID), r.Task, abridge(r.Command, 60), r.Runs)
		}
	})
	section(w, "failed tool calls", len(st.FailedByTool), func(tw io.Writer) {
		for _, c := range st.FailedByTool {
			fmt.Fprintf(tw, "%s\t%d\n", c.Tool, c.Count)
		}
	})
	section(w, "edits never followed by a verifying command", len(st.UnverifiedEdits), func(tw io.Writer) {
		for _, e := range st.UnverifiedEdits {
			fmt.Fprintf(tw, "%s\ttask %d\tround %d\t%s %s\n", datalog.ShortID(e.SessionID), e.Task, e.Round, e.Tool, termtext.Sanitize(e.Path))
		}
	})
	section(w, "interventions (edit within the next 3 rounds)", len(st.Interventions), func(tw io.Writer) {
		for _, iv := range st.Interventions {
			fmt.Fprintf(tw, "%s\tfired %d\tfollowed by an edit %d\n", iv.Kind, iv.Fired, iv.FollowedByEdit)
		}
	})
	printCheckpoints(w, st.Checkpoints)
	printPermissions(w, st.Permissions)
}

// printPermissions prints how the user answered permission questions.
func printPermissions(w io.Writer, p datalog.PermissionStats) {
	fmt.Fprintf(w, "permission answers: %d allowed once, %d allowed for the session, %d denied", p.AllowedOnce, p.AllowedSession, p.Denied)
	if p.Allowed > 0 {
		fmt.Fprintf(w, ", %d allowed (once or for the session: not recorded)", p.Allowed)
	}
	fmt.Fprintln(w)
	for _, g := range p.Grants {
		fmt.Fprintf(w, "  for the session: %s (%s)\n", termtext.Sanitize(g.Tool), count(g.Count, "call"))
	}
}

// printCheckpoints prints how checkpoints were answered.
func printCheckpoints(w io.Writer, c datalog.CheckpointStats) {
	fmt.Fprintf(w, "\ncheckpoints: %d fired, %d answered with reflect, %d unanswered, %d unprompted reflections",
		c.Fired, c.Answered, c.Unanswered, c.Unprompted)
	if c.Answered+c.Unprompted > 0 {
		fmt.Fprintf(w, ", mean confidence %.2f", c.MeanConfidence)
	}
	fmt.Fprintln(w)
	if len(c.Adjustments) > 0 {
		parts := make([]string, len(c.Adjustments))
		for i, a := range c.Adjustments {
			parts[i] = fmt.Sprintf("%s %d", a.Tool, a.Count)
		}
		fmt.Fprintf(w, "adjustments: %s\n", strings.Join(parts, ", "))
	}
	if c.InternalErrors > 0 {
		fmt.Fprintf(w, "INTERNAL ERRORS recorded: %d (keel log show lists them)\n", c.InternalErrors)
	}
}

// section prints a titled, aligned block, or "none".
func section(w io.Writer, title string, n int, body func(io.Writer)) {
	fmt.Fprintf(w, "\n%s:", title)
	if n == 0 {
		fmt.Fprintln(w, " none")
		return
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
	body(tw)
	tw.Flush()
}
