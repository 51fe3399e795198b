package keellog

import (
	"encoding/json"
	"fmt"
	"github.com/keel-dev/keel/agent/datalog"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/keel-dev/keel/internal/termtext"
)

func newExportCommand(open func(bool) (*datalog.DB, error), otlp func() (OTLP, error)) *cobra.Command {
	var format string
	var toOTLP bool
	var f listFlags
	cmd := &cobra.Command{
		Use:   "export [ID]",
		Short: "Export a session as JSON lines or a markdown transcript, or send sessions to an OpenTelemetry collector (--otlp)",
		Long: `Export a session as JSON lines or a markdown transcript.

With --otlp, send sessions to an OpenTelemetry collector as traces, the same
spans a session with telemetry on sends: the session named, or every session
(--since and --project narrow them). The collector is [telemetry] endpoint or
OTEL_EXPORTER_OTLP_ENDPOINT (default http://localhost:4318, OTLP/HTTP); prompts,
answers and tool calls go only with [telemetry] log_content = true.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if toOTLP {
				return optionalSessionID(cmd, args)
			}
			return oneSessionID(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if toOTLP {
				return runExportOTLP(cmd, open, otlp, args, f)
			}
			if format != "jsonl" && format != "markdown" {
				return usagef("--format %q is not known; use --format jsonl or --format markdown", format)
			}
			return withDB(open, true, func(db *datalog.DB) error {
				d, err := loadByPrefix(cmd, db, args[0], 0)
				if err != nil {
					return err
				}
				if format == "jsonl" {
					return exportJSONL(cmd.OutOrStdout(), d)
				}
				exportMarkdown(cmd.OutOrStdout(), d)
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&format, "format", "jsonl", "jsonl or markdown")
	cmd.Flags().BoolVar(&toOTLP, "otlp", false, "send to an OpenTelemetry collector over OTLP/HTTP instead of printing")
	cmd.Flags().StringVar(&f.project, "project", "", "with --otlp and no ID: only sessions of this project directory")
	cmd.Flags().StringVar(&f.since, "since", "", "with --otlp and no ID: only sessions newer than this age (7d, 12h, 90m)")
	return cmd
}

// runExportOTLP is export --otlp: the filter's flags make sense only
// without an ID.
func runExportOTLP(cmd *cobra.Command, open func(bool) (*datalog.DB, error), otlp func() (OTLP, error), args []string, f listFlags) error {
	if otlp == nil {
		return usagef("this keel cannot send to a collector")
	}
	if len(args) == 1 && (f.project != "" || f.since != "") {
		return usagef("--project and --since choose sessions when no ID is given; pass one or the other")
	}
	if cmd.Flags().Changed("format") {
		return usagef("--format is for printing; --otlp sends spans instead")
	}
	since, err := f.sinceAge()
	if err != nil {
		return err
	}
	return withDB(open, true, func(db *datalog.DB) error {
		var filter datalog.Filter
		if filter.Project, err = projectFlag(f.project); err != nil {
			return err
		}
		if f.since != "" {
			filter.Since = db.Now().Add(-since)
		}
		return exportOTLP(cmd, db, otlp, args, filter)
	})
}

// exportJSONL writes the session, then one line per round, with the C1
// controls escaped (termtext.NewJSONWriter).
func exportJSONL(w io.Writer, d *datalog.SessionDetail) error {
	enc := json.NewEncoder(termtext.NewJSONWriter(w))
	if err := enc.Encode(map[string]any{"type": "session", "session": d.Session}); err != nil {
		return err
	}
	for _, rd := range d.Rounds {
		if err := enc.Encode(map[string]any{"type": "round", "round": rd}); err != nil {
			return err
		}
	}
	return nil
}

// exportMarkdown writes a transcript: the conversation in order, with
// tool calls, results and interventions where they happened. It is
// sanitised (termtext) like keel log show: the file is for reading, and
// may well be printed with cat; export jsonl keeps every byte.
func exportMarkdown(w io.Writer, d *datalog.SessionDetail) {
	w = termtext.NewWriter(w)
	s := d.Session
	fmt.Fprintf(w, "# keel session %s\n\n", s.ID)
	fmt.Fprintf(w, "- project: `%s`\n- model: %s/%s\n- started: %s\n- stop: %s\n- %d rounds, %d tool calls, %s\n",
		s.ProjectRoot, s.Provider, s.Model, s.Started.Local().Format("2006-01-02 15:04:05"), s.StopReason,
		s.Totals.Rounds, s.Totals.ToolCalls, money(s.Totals.Cost, s.Totals.TokensIn+s.Totals.TokensOut))
	for _, rd := range d.Rounds {
		for _, m := range rd.Messages {
			markdownMessage(w, m)
		}
		for _, iv := range rd.Interventions {
			fmt.Fprintf(w, "\n> **keel intervention (%s)**\n>\n> %s\n", iv.Kind, strings.ReplaceAll(iv.Message, "\n", "\n> "))
		}
	}
}

func markdownMessage(w io.Writer, m datalog.Message) {
	msg := m.Msg
	switch msg.Role {
	case "system":
		fmt.Fprintf(w, "\n## System\n\n<details><summary>system prompt</summary>\n\n%s\n\n</details>\n", fence(msg.Content))
	case "user":
		fmt.Fprintf(w, "\n## User\n\n%s\n", msg.Content)
	case "assistant":
		fmt.Fprintf(w, "\n## Assistant\n\n")
		if msg.Content != "" {
			fmt.Fprintf(w, "%s\n", msg.Content)
		}
		for _, c := range msg.ToolCalls {
			fmt.Fprintf(w, "\n**→ %s**\n\n%s\n", c.Name, fenceLang("json", c.Arguments))
		}
	case "tool":
		fmt.Fprintf(w, "\n**← %s result**\n\n%s\n", msg.Name, fence(msg.Content))
	}
}

func fence(s string) string { return fenceLang("", s) }

// fenceLang fences s with more backticks than it contains in a row.
func fenceLang(lang, s string) string {
	ticks := "```"
	for strings.Contains(s, ticks) {
		ticks += "`"
	}
	return ticks + lang + "\n" + strings.TrimRight(s, "\n") + "\n" + ticks
}
