package statusbar

import (
	"fmt"
	"time"

	"github.com/keel-dev/keel/agent"
)

// silence is a server keel waits on that has sent nothing for quiet; the
// spinner's ticks count it up until bytes flow or the state changes.
type silence struct {
	provider string
	quiet    time.Duration
	timeout  time.Duration
	since    time.Time // when the quiet began, fixed at the first tick
}

// Silent shows (or, with Quiet 0, clears) a silent server.
func (s *Model) Silent(ev agent.ProviderSilent) {
	s.silence = silence{provider: ev.Provider, quiet: ev.Quiet, timeout: ev.Timeout}
}

func (q *silence) tick(at time.Time) {
	if q.quiet <= 0 {
		return
	}
	if q.since.IsZero() {
		q.since = at.Add(-q.quiet)
	}
	q.quiet = max(at.Sub(q.since), time.Second)
}

// String names the server, how long it has been quiet and when keel gives
// up: "waiting for openai: nothing for 23 s (gives up at 120 s)".
func (q silence) String() string {
	secs := func(d time.Duration) int { return int(d.Round(time.Second).Seconds()) }
	return fmt.Sprintf("waiting for %s: nothing for %d s (gives up at %d s)", q.provider, secs(q.quiet), secs(q.timeout))
}
