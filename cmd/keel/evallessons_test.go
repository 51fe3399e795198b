package main

import (
	"context"
	"testing"

	"github.com/keel-dev/keel/agent"
)

// TestEvalLessonsStayOnTheirArm: runs of the same task on the two sides of
// a comparison record under different projects, so lessons from one side
// are never offered to the other (that made A/B results depend on which
// run finished first).
func TestEvalLessonsStayOnTheirArm(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	var store lessonStore
	defer store.close()
	projects := map[string]string{}
	for _, arm := range []string{"A", "B", "A"} {
		var opts agent.Options
		if err := store.attach(context.Background(), &opts, "config-fix", arm); err != nil {
			t.Fatal(err)
		}
		if prev, ok := projects[arm]; ok && prev != opts.Project {
			t.Errorf("arm %s moved from project %q to %q", arm, prev, opts.Project)
		}
		projects[arm] = opts.Project
	}
	if projects["A"] == projects["B"] {
		t.Errorf("both arms record under %q", projects["A"])
	}
}
