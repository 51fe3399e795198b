package keellog

import (
	"fmt"
	"github.com/keel-dev/keel/agent/datalog"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/keel-dev/keel/internal/termtext"
)

func newShowCommand(open func(bool) (*datalog.DB, error)) *cobra.Command {
	var asJSON bool
	var roundN int
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Show a session round by round (ID: a unique prefix is enough)",
		Args:  oneSessionID,
		RunE: func(cmd *cobra.Command, args []string) error {
			return withDB(open, true, func(db *datalog.DB) error {
				d, err := loadByPrefix(cmd, db, args[0], roundN)
				if err != nil {
					return err
				}
				out := cmd.OutOrStdout()
				if roundN > 0 && !asJSON {
					printRoundFull(out, d.Rounds[0])
					return nil
				}
				r, err := loadRelated(cmd.Context(), db, d)
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSON(out, r)
				}
				printSession(out, r)
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the full record as JSON")
	cmd.Flags().IntVar(&roundN, "round", 0, "print only round N, in full")
	return cmd
}

// loadByPrefix resolves an id prefix and loads the session, or one round.
func loadByPrefix(cmd *cobra.Command, db *datalog.DB, prefix string, roundN int) (*datalog.SessionDetail, error) {
	id, err := db.ResolveID(cmd.Context(), prefix)
	if err != nil {
		return nil, err
	}
	if roundN <= 0 {
		return db.LoadSession(cmd.Context(), id)
	}
	d, err := db.LoadRounds(cmd.Context(), id, roundN, roundN)
	if err == nil && len(d.Rounds) == 0 {
		err = usagef("session %s has no round %d; it has %d", datalog.ShortID(id), roundN, d.Session.Totals.Rounds)
	}
	return d, err
}

// printSession prints a session round by round. Everything goes through
// termtext: messages, arguments and results are the model's and the
// tools' text, which must not reach the terminal as control sequences.
func printSession(w io.Writer, r *related) {
	w = termtext.NewWriter(w)
	d := r.SessionDetail
	s := d.Session
	fmt.Fprintf(w, "session %s  %s  %s/%s  started %s  stop %s\n", s.ID, s.ProjectRoot, s.Provider, s.Model,
		s.Started.Local().Format("2006-01-02 15:04:05"), s.StopReason)
	fmt.Fprintf(w, "  %s, %s, %d in / %d out / %d cached tokens, %s\n", count(s.Totals.Rounds, "round"),
		count(s.Totals.ToolCalls, "tool call"), s.Totals.TokensIn, s.Totals.TokensOut, s.Totals.TokensCached, money(s.Totals.Cost, s.Totals.TokensIn+s.Totals.TokensOut))
	if s.FirstPrompt != "" {
		fmt.Fprintf(w, "  prompt: %s\n", abridge(s.FirstPrompt, 100))
	}
	printPaths(w, d)
	printRelated(w, r)
	pp := &planPrinter{}
	for _, rd := range d.Rounds {
		fmt.Fprintln(w)
		printRound(w, rd, 160, pp)
	}
	printUnfinished(w, d.Unfinished)
}

// printUnfinished lists calls that started and never finished: keel was
// killed while they ran, so what they did is unknown.
func printUnfinished(w io.Writer, calls []datalog.Intent) {
	for i, in := range calls {
		if i == 0 || in.Round != calls[i-1].Round {
			fmt.Fprintf(w, "\nround %d  not finished: keel was stopped while it ran\n", in.Round)
		}
		fmt.Fprintf(w, "  tool  %s %s → started %s, outcome unknown: check the files\n",
			in.Name, abridge(in.Arguments, 160), in.Started.Local().Format("15:04:05"))
	}
}

// printRound prints one round; text longer than width is abridged
// (width 0: in full). w must sanitise (termtext.NewWriter): printSession
// and printRoundFull pass it one.
func printRound(w io.Writer, rd *datalog.RoundDetail, width int, pp *planPrinter) {
	r := rd.Round
	fmt.Fprintf(w, "round %d  task %d  %s (first token %s)  in %d out %d cached %d  %s  finish %s",
		r.Seq, r.TaskSeq, dur(r.Duration), dur(r.FirstToken), r.TokensIn, r.TokensOut, r.TokensCached, money(r.Cost, r.TokensIn+r.TokensOut), r.FinishReason)
	if r.Retries > 0 {
		fmt.Fprintf(w, "  retries %d", r.Retries)
	}
	fmt.Fprintln(w)
	cut := func(s string) string {
		if width == 0 {
			return s
		}
		return abridge(s, width)
	}
	if width == 0 { // one round in full: its transitions one by one (the session's view has each task's path)
		for _, st := range rd.Transitions {
			fmt.Fprintf(w, "  state  %s → %s %s\n", st.From, st.To, cut(st.Detail))
		}
	}
	for _, m := range rd.Messages {
		if m.Msg.Role == "assistant" && strings.TrimSpace(m.Msg.Content) != "" {
			fmt.Fprintf(w, "  assistant  %s\n", cut(m.Msg.Content))
		}
	}
	for _, tc := range rd.ToolCalls {
		outcome := "ok"
		if tc.IsError {
			outcome = "ERROR"
		}
		fmt.Fprintf(w, "  tool  %s %s → %s, %d bytes, %s", tc.Name, cut(tc.Arguments), outcome, tc.ResultSize, dur(tc.Duration))
		if text := datalog.DecisionText(tc.Permission, tc.Name, tc.DecidedBy); text != "" {
			fmt.Fprintf(w, ", %s", text)
		}
		fmt.Fprintln(w)
		if tc.IsError || width == 0 {
			fmt.Fprintf(w, "        %s\n", cut(tc.Result))
		}
	}
	for _, iv := range rd.Interventions {
		fmt.Fprintf(w, "  >>> INTERVENTION %s at call %d %s\n      %s\n", strings.ToUpper(iv.Kind), iv.AtToolCall, iv.Figures, cut(iv.Message))
		if iv.Reply != "" {
			fmt.Fprintf(w, "      reply: %s\n", cut(iv.Reply))
		}
	}
	for _, p := range rd.Plans {
		pp.print(w, p, cut)
	}
	printReflections(w, rd.Reflections, cut)
	for _, fc := range rd.FileChanges {
		fmt.Fprintf(w, "  file  %s (new: %v)\n", fc.Path, !fc.Existed)
	}
}

// printRoundFull prints one round with every message in full, sanitised
// like printSession.
func printRoundFull(w io.Writer, rd *datalog.RoundDetail) {
	w = termtext.NewWriter(w)
	printRound(w, rd, 0, &planPrinter{})
	fmt.Fprintln(w, "\nmessages added:")
	for _, m := range rd.Messages {
		fmt.Fprintf(w, "--- #%d %s\n%s\n", m.Seq, m.Msg.Role, m.JSON)
	}
}

func dur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return d.Round(100 * time.Millisecond).String()
	case d >= time.Millisecond:
		return d.Round(time.Millisecond).String()
	}
	return d.String()
}
