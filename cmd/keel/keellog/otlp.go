package keellog

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/keel-dev/keel/agent/datalog"
)

// OTLP sends stored sessions to an OpenTelemetry collector: cmd/keel
// makes it from [telemetry] and the OTEL_EXPORTER_OTLP_* variables
// (agent/telemetry's Exporter).
type OTLP interface {
	// ExportSession builds a session's spans and returns how many.
	ExportSession(d *datalog.SessionDetail) int
	// Flush sends every span built so far.
	Flush(ctx context.Context) error
	Shutdown(ctx context.Context) error
	// Dropped is how many spans did not reach the collector.
	Dropped() int64
	// Where names the collector.
	Where() string
}

// otlpFlushTimeout bounds the wait for the collector once every session
// was built (the queue itself waits for it while they are).
const otlpFlushTimeout = 60 * time.Second

// exportOTLP sends the session named by args, or every session the
// filter keeps, and says how it went.
func exportOTLP(cmd *cobra.Command, db *datalog.DB, start func() (OTLP, error), args []string, filter datalog.Filter) error {
	ids, err := exportIDs(cmd, db, args, filter)
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		fmt.Fprintln(cmd.OutOrStdout(), "no sessions to send")
		return nil
	}
	sender, err := start()
	if err != nil {
		return err
	}
	spans := 0
	for _, id := range ids {
		d, err := db.LoadSession(cmd.Context(), id)
		if err != nil {
			_ = sender.Shutdown(context.Background())
			return err
		}
		spans += sender.ExportSession(d)
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), otlpFlushTimeout)
	defer cancel()
	flushErr := sender.Flush(ctx)
	shutErr := sender.Shutdown(ctx)
	if lost := sender.Dropped(); lost > 0 {
		return fmt.Errorf("%d of %d spans did not reach the collector at %s; check that it takes OTLP/HTTP there and run the export again", lost, spans, sender.Where())
	}
	if err := errors.Join(flushErr, shutErr); err != nil {
		return fmt.Errorf("the collector at %s did not take the spans (%w); check that it takes OTLP/HTTP there and run the export again", sender.Where(), err)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "sent %s (%d spans) to %s\n", plural(len(ids), "session"), spans, sender.Where())
	return nil
}

// exportIDs are the sessions to send: the one named, or the filter's.
func exportIDs(cmd *cobra.Command, db *datalog.DB, args []string, filter datalog.Filter) ([]string, error) {
	if len(args) == 1 {
		id, err := db.ResolveID(cmd.Context(), args[0])
		return []string{id}, err
	}
	filter.Asked = true
	list, err := db.ListSessions(cmd.Context(), filter)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(list))
	for i := len(list) - 1; i >= 0; i-- { // oldest first
		ids = append(ids, list[i].ID)
	}
	return ids, nil
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
