package termtext

import (
	"fmt"
	"time"
)

// Duration shows how long something took, short and stable, the same in
// the TUI and keel -p's progress lines: <1ms, 12ms, 1.4s, 2m05s. A call
// under a millisecond is "<1ms", not "0ms", which reads as a duration that
// was lost.
func Duration(d time.Duration) string {
	switch {
	case d > 0 && d < time.Millisecond:
		return "<1ms"
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}
