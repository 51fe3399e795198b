package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/datalog"
)

// lessonStore is keel eval's own datalog for lessons: opened on the first
// run that has lessons on, in a temporary directory removed by close.
// Each task and arm is one project ("eval:ARM:TASK"), so a run is offered
// the lessons of the same task's earlier runs on its own side of the
// comparison, and of no other task: one arm's lessons never help the other.
type lessonStore struct {
	once sync.Once
	dir  string
	db   *datalog.DB
	err  error
}

// attach gives a run's session a recorder in the store, under the task's
// and arm's project.
func (l *lessonStore) attach(ctx context.Context, opts *agent.Options, task, arm string) error {
	l.once.Do(func() {
		if l.dir, l.err = os.MkdirTemp("", "keel-eval-lessons-"); l.err == nil {
			l.db, l.err = datalog.Open(filepath.Join(l.dir, "eval.db"), datalog.Options{})
		}
	})
	if l.err != nil {
		return fmt.Errorf("open the eval's lessons datalog: %w", l.err)
	}
	project := "eval:" + arm + ":" + task
	id, err := l.db.StartSession(ctx, datalog.Session{ProjectRoot: project, Provider: opts.ProviderName, Model: opts.Model})
	if err != nil {
		return fmt.Errorf("record an eval run: %w", err)
	}
	opts.Recorder, opts.SessionID, opts.Project = agent.NewRecorder(l.db, id, 0, false), id, project
	return nil
}

// close closes and removes the store, if it was opened.
func (l *lessonStore) close() {
	if l.db != nil {
		_ = l.db.Close()
	}
	if l.dir != "" {
		_ = os.RemoveAll(l.dir)
	}
}
