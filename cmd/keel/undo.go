package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/tools"
)

// undoLastTask restores the file changes of the last task of a session
// (the given id, else the project's latest) and says which files it
// restored and which it left, and why. An undo that was interrupted
// (keel was killed during it) is finished first, instead.
func undoLastTask(ctx context.Context, db *datalog.DB, root, id string) (string, error) {
	run, changes, err := db.UnfinishedUndo(ctx, root)
	if err != nil {
		return "", err
	}
	if run != nil {
		msg, err := runUndo(ctx, db, run.ID, changes, root, "the task it was undoing")
		prefix := fmt.Sprintf("keel undo was interrupted at %s; finished it: ", run.Started.Local().Format("15:04:05"))
		if err != nil {
			return "", errors.New(prefix + err.Error())
		}
		return prefix + msg, nil
	}
	if id, err = undoSession(ctx, db, root, id); err != nil {
		return "", err
	}
	if err := db.CheckLastTask(ctx, root); err != nil {
		return "", err
	}
	changes, err = db.TaskFileChanges(ctx, id)
	if err != nil {
		return "", err
	}
	if len(changes) == 0 {
		return "nothing to undo: the last task changed no files", nil
	}
	ids := make([]int64, len(changes))
	for i, c := range changes {
		ids[i] = c.ID
	}
	runID, err := db.BeginUndo(ctx, id, changes[0].TaskSeq, ids)
	if err != nil {
		return "", fmt.Errorf("undo refused, nothing restored: keel could not record the undo it was about to make: %w", err)
	}
	return runUndo(ctx, db, runID, changes, root, "the last task")
}

// undoSession is the session to undo in: id (a prefix is enough), else
// the project's latest.
func undoSession(ctx context.Context, db *datalog.DB, root, id string) (string, error) {
	if id != "" {
		return db.ResolveID(ctx, id)
	}
	s, err := db.LatestSession(ctx, root)
	if errors.Is(err, datalog.ErrNotFound) {
		return "", usageError(fmt.Errorf("there is no session in %s to undo; keel undo restores what the last task of this project's latest session changed", root))
	}
	if err != nil {
		return "", err
	}
	return s.ID, nil
}

// runUndo restores changes as undo run run, records which are undone and
// reports. The changes a later undo may try again (a file changed since,
// an I/O error) stay to undo; an error names the files left.
func runUndo(ctx context.Context, db *datalog.DB, run int64, changes []datalog.FileChange, root, what string) (string, error) {
	rec := recordedChanges(changes)
	paths := make([]string, len(rec))
	for i, c := range rec {
		paths[i] = c.Path
	}
	tools.RemoveStaleTemps(paths) // an interrupted write's or undo's
	outs := tools.Undo(rec)
	var done []int64
	for _, o := range outs {
		if o.Done || !o.Retry {
			done = append(done, o.IDs...)
		}
	}
	if err := db.FinishUndo(ctx, run, done); err != nil {
		return "", fmt.Errorf("undo restored the files but could not record it (%w); run keel undo again to finish", err)
	}
	msg, failed := undoReport(outs, root, what)
	if failed {
		return "", errors.New(msg)
	}
	return msg, nil
}

// recordedChanges are the datalog's changes as undo takes them. A large
// edit whose record is damaged is withheld.
func recordedChanges(changes []datalog.FileChange) []tools.RecordedChange {
	out := make([]tools.RecordedChange, len(changes))
	for i, c := range changes {
		out[i] = tools.RecordedChange{ID: c.ID, Pending: c.Pending, Withheld: c.Withheld, PathWithheld: c.PathWithheld,
			FileChange: tools.FileChange{Path: c.Path, Existed: c.Existed, Before: c.Before, After: c.After, Mode: c.Mode,
				BeforeSHA256: c.BeforeSHA256, AfterSHA256: c.AfterSHA256, ByCommand: c.ByCommand, NewDirs: c.NewDirs}}
		if len(c.Splices) > 0 && json.Unmarshal(c.Splices, &out[i].Splices) != nil && out[i].Withheld == "" {
			out[i].Withheld = "the datalog's record of its edit is damaged: restore it from git or by hand"
		}
	}
	return out
}

// undoReport says what undo restored, naming the files, and which files
// it left as they are, and why; failed when it left one keel changed.
func undoReport(outs []tools.FileOutcome, root, what string) (msg string, failed bool) {
	var restored, already, left, dirs []string
	commands, retry := 0, 0
	for _, o := range outs {
		rel := relTo(root, o.Path)
		for _, d := range o.RemovedDirs {
			dirs = append(dirs, relTo(root, d))
		}
		switch {
		case o.Done:
			restored = append(restored, rel)
			if o.Already {
				already = append(already, rel)
			}
		default:
			left = append(left, fmt.Sprintf("%s (%s)", rel, o.Left))
			if strings.HasPrefix(o.Left, "a command changed it") {
				commands++
			}
			if o.Retry {
				retry++
			}
		}
	}
	switch len(restored) {
	case 0:
		msg = "restored no file of " + what
	case 1:
		msg = "restored " + restored[0] + " as it was before " + what
	default:
		msg = fmt.Sprintf("restored %d files as they were before %s: %s", len(restored), what, strings.Join(restored, ", "))
	}
	if len(already) > 0 {
		msg += fmt.Sprintf(" (already as before: %s)", strings.Join(already, ", "))
	}
	if len(dirs) > 0 {
		msg += "; removed the directories keel had created: " + strings.Join(dirs, ", ")
	}
	if len(left) > 0 {
		msg += "; left as they are: " + strings.Join(left, ", ")
	}
	if retry > 0 {
		msg += "; keel undo tries those it left again, once they are as keel left them"
	}
	return msg, len(left) > commands
}

// relTo is path relative to root, or path when it is outside.
func relTo(root, path string) string {
	rel, err := filepath.Rel(root, path)
	if err != nil || strings.HasPrefix(rel, "..") {
		return path
	}
	return rel
}

// removeStaleTemps removes the temp files of writes (and undos) keel was
// killed during in the project at root: the datalog's journal names the
// files. It runs at every start; a failure costs only a leftover file.
func removeStaleTemps(db *datalog.DB, root string) {
	if db == nil {
		return
	}
	paths, err := db.JournaledPaths(context.Background(), root, 200)
	if err == nil && len(paths) > 0 {
		tools.RemoveStaleTemps(paths)
	}
}

// gateRecordAsker asks through the permission dialog whether to make a
// change the datalog cannot record (agent.RecordAsker, the TUI's).
type gateRecordAsker struct{ gate agent.Gate }

func (g gateRecordAsker) AskUnrecorded(ctx context.Context, c agent.UnrecordedChange) (bool, error) {
	reply, err := g.gate.Ask(ctx, agent.PermissionRequest{Tool: c.Tool, Args: c.Args, Summary: c.Path,
		Reason: "keel's datalog cannot record this change (" + c.Err + "), so keel undo could not restore it: allow makes it anyway, deny leaves the file as it is"})
	return err == nil && reply.Allow, err
}
