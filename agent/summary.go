package agent

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/keel-dev/keel/discipline"
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
	}
	if endedTurn {
		sum.Text = t.result // the answer (with its continuation after a length cut)
	}
	t.compaction.compacted = false
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
		Args:       discipline.NormalizeArgs(o.call.Arguments),
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
	if o.result.ExitCode != nil {
		c.ExitCode = *o.result.ExitCode
	}
	if o.call.Name == tools.NameRunCommand {
		c.Command = commandOf(o.call.Arguments)
	}
	return c
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
