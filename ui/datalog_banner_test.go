package ui

import (
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent"
)

// While the datalog cannot save, a banner above the input says so, at
// every width; when it saves again the banner goes and a notice says so.
func TestDatalogBannerShowsWhileTheDatalogFails(t *testing.T) {
	const fails = "keel's datalog cannot save (disk full): file changes wait for it, and keel retries"
	for _, w := range []int{80, 120} {
		m := newTestModel(t, w, 24)
		if strings.Contains(plain(m), "⚠") {
			t.Fatalf("a banner with nothing failing:\n%s", plain(m))
		}
		send(m, events(agent.DatalogHealth{OK: false, Text: fails}))
		if s := plain(m); !strings.Contains(s, "⚠ keel's datalog cannot save") || strings.Count(s, "\n") > 24 {
			t.Fatalf("width %d: no banner (or the screen grew):\n%s", w, s)
		}
		send(m, events(agent.DatalogHealth{OK: true, Text: "keel's datalog is saving again"}))
		if s := plain(m); strings.Contains(s, "⚠ keel's datalog") || !strings.Contains(s, "saving again") {
			t.Fatalf("width %d: the banner stayed, or no notice:\n%s", w, s)
		}
	}
}
