package common

import (
	"fmt"

	"github.com/keel-dev/keel/internal/bigargs"
)

// A tool call's arguments past shownArgs reach the transcript with each
// string value past keptValue replaced by a short notice: a 50 MB
// write_file content cost the TUI two sanitised copies (its call's start
// and end) and a peak of 437 MB, and no one reads it in a row. The path
// and the other short values stay, so the row says what the call did.
const (
	shownArgs = 64 << 10
	keptValue = 4 << 10
)

// ShownArgs is args as the transcript keeps them.
func ShownArgs(args string) string {
	short, _ := bigargs.Shorten(args, shownArgs, keptValue, func(e bigargs.Elided, _ string) string {
		if e.Key == "" {
			return fmt.Sprintf("[%s of arguments not shown]", Bytes(int64(e.Bytes)))
		}
		return fmt.Sprintf("[%s of %s not shown]", Bytes(int64(e.Bytes)), e.Key)
	})
	return short
}
