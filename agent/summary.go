package agent

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/keel-dev/keel/discipline"
	"github.com/keel-dev/keel/internal/bigargs"
	"github.com/keel-dev/keel/tools"
)

// roundSummary describes a finished round to discipline.
func (t *task) roundSummary(outs []outcome, endedTurn bool) discipline.RoundSummary {
	sum := discipline.RoundSummary{
		Calls:         make([]discipline.ToolCall, 0, len(outs)),
		EndedTurn:     endedTurn,
		Plan:          planView(t.s.Plan()),
		Compacted:     t.compaction.compacted,
		ToolCalls:     t.workCalls(),
		ContextUsed:   t.compaction.lastPrompt,
		ContextWindow: t.s.opts.ContextWindow,
		WorldChanged:  len(t.outside) > 0,
		Outside:       t.outside,
	}
	if endedTurn {
		sum.Text = t.result // the answer (with its continuation after a length cut)
	}
	t.compaction.compacted = false
	t.outside = nil
	for _, o := range outs {
		if o.skip != "" || o.call.Name == ReflectToolName {
			continue // never ran, or answered a checkpoint: nothing for the guards to judge
		}
		c := callSummary(o)
		if c.Command != "" && len(c.Reads) == 0 && !c.IsError {
			c.Reads = commandReads(t.s.opts.Workdir, o.call.Arguments, c.Command)
		}
		sum.Calls = append(sum.Calls, c)
	}
	return sum
}

// commandReads sees a command that printed one file's region (cat, head,
// sed -n ...) as a read of it, so the re-read guard counts it.
func commandReads(workdir, args, command string) []discipline.Read {
	path, from, to, ok := discipline.CommandRead(command)
	if !ok {
		return nil
	}
	var a struct {
		Workdir string `json:"workdir"`
	}
	_ = json.Unmarshal([]byte(args), &a)
	dir := workdir
	if a.Workdir != "" {
		dir = resolveIn(workdir, a.Workdir)
	}
	abs := resolveIn(dir, path)
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil
	}
	total := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		total++
	}
	return []discipline.Read{{Path: abs, Version: tools.Version(data), From: from, To: to, Total: total}}
}

// resolveIn makes p absolute against dir.
func resolveIn(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// callSummary is one call as discipline sees it. A command that prints a
// file (cat, head, sed -n ...) counts as a read of that file's region.
func callSummary(o outcome) discipline.ToolCall {
	c := discipline.ToolCall{
		Name:       o.call.Name,
		Args:       guardArgs(o.call.Arguments),
		ResultHash: discipline.HashOutput(o.output),
		IsError:    o.result.IsError,
	}
	if o.result.IsError {
		c.ErrorLine = o.output
	}
	for _, r := range o.result.Reads {
		c.Reads = append(c.Reads, discipline.Read{Path: r.Path, Version: r.Version, From: r.From, To: r.To, Total: r.Total})
	}
	for _, ch := range o.result.Changes {
		if ch.ByCommand && !tools.JudgedChange(ch) {
			continue // a binary a build wrote is output, not an edit
		}
		c.Changed = append(c.Changed, ch.Path)
	}
	c.Edits = editsOf(o.result.Changes)
	if o.result.ExitCode != nil {
		c.ExitCode = *o.result.ExitCode
	}
	if o.call.Name == tools.NameRunCommand {
		c.Command, c.Workdir = commandOf(o.call.Arguments), workdirOf(o.call.Arguments)
	}
	if j := o.result.Job; j != nil {
		c.Job = &discipline.Job{ID: j.ID, Started: j.Started, Running: j.Running, NewOutput: int(min(j.NewBytes, 1<<30))}
		if j.Ended {
			// The read that saw the job end reports its command's run:
			// a failing job is a failing run, a passing check verifies.
			c.Command, c.ExitCode = j.Command, j.ExitCode
		}
	}
	return c
}

// editsOf is the content of each change, before and after, as hashes
// (SHA-256, hex): the bytes keel has, the hashes a large file's splices
// carry, or, for a command's change, the file as it is now.
func editsOf(changes []tools.FileChange) []discipline.Edit {
	var out []discipline.Edit
	for _, ch := range changes {
		if ch.ByCommand && !tools.JudgedChange(ch) {
			continue
		}
		e := discipline.Edit{Path: ch.Path, Before: discipline.Absent, After: discipline.Absent}
		switch {
		case ch.ByCommand:
			e.Before = "" // a command's change: the content before is unknown
			if !ch.Deleted {
				e.After = fileHash(ch.Path)
			}
		case ch.Splices != nil || ch.AfterSHA256 != "":
			e.Before, e.After = ch.BeforeSHA256, ch.AfterSHA256
		default:
			if ch.Existed {
				e.Before = sha(ch.Before)
			}
			e.After = sha(ch.After)
		}
		if e.After != "" {
			out = append(out, e)
		}
	}
	return out
}

// maxHashed bounds the file a command changed that keel reads to hash.
const maxHashed = 4 << 20

// fileHash is the SHA-256 of a file's content, "" when it cannot be read
// or is larger than maxHashed.
func fileHash(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if n, err := io.Copy(h, io.LimitReader(f, maxHashed+1)); err != nil || n > maxHashed {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

func sha(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// planView is the part of the plan discipline needs.
func planView(p *Plan) discipline.PlanView {
	if p == nil {
		return discipline.PlanView{}
	}
	v := discipline.PlanView{Goal: p.Goal, Steps: make([]discipline.PlanStep, len(p.Steps))}
	for i, s := range p.Steps {
		v.Steps[i] = discipline.PlanStep{Title: s.Title, Status: s.Status}
		if parent := p.Step(s.Parent); parent != nil {
			if v.Parents == nil {
				v.Parents = map[string]string{}
			}
			v.Parents[s.Title] = parent.Title
		}
	}
	return v
}

// bigArgs is the size past which a call's arguments reach the guards as a
// digest: a 50 MB write_file's content, normalized, copied into the
// repeat guard's keys and kept for the task, cost 50 MB each time
// (issue 26); equal arguments still give equal digests.
const bigArgs = 64 << 10

// guardArgs is what the guards compare a call's arguments by: normalized
// JSON, or for big arguments their start and a digest of them all.
func guardArgs(args string) string {
	if len(args) <= bigArgs {
		return discipline.NormalizeArgs(args)
	}
	h := sha256.New()
	bigargs.HashString(h, args) // no copy of the whole
	return strings.ToValidUTF8(args[:200], "") + "… sha256:" + hex.EncodeToString(h.Sum(nil))
}
