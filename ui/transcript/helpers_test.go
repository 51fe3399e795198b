package transcript

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/ui/theme"
)

// newTestTranscript is an empty transcript in the dark styles.
func newTestTranscript() *Model { return New(theme.New(true, false)) }

// screen is the transcript's view at width × height, without escape
// sequences.
func screen(m *Model, width, height int) string {
	return ansi.Strip(strings.Join(m.View(width, height, "⠋"), "\n"))
}

// testDatalog opens a real datalog in a temporary directory, closed when
// the test ends, and starts a session of project root in it.
func testDatalog(t *testing.T, root string) (*datalog.DB, string) {
	t.Helper()
	db, err := datalog.Open(filepath.Join(t.TempDir(), "keel.db"), datalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	sid, err := db.StartSession(context.Background(), datalog.Session{ProjectRoot: root, Started: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	return db, sid
}
