package agent

import (
	"fmt"
	"strings"

	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/tools"
)

// lookBefore runs the workspace check before a round that runs a command
// or reads a background job (the calls whose results may not show a
// change), keeping what changed outside keel for the round's summary.
func (t *task) lookBefore(calls []llm.ToolCall) (bool, []string) {
	w := t.s.world
	if w == nil || w.root == "" {
		return false, nil
	}
	look := false
	var named []string
	for _, c := range calls {
		switch c.Name {
		case tools.NameRunCommand:
			look = true
			dir := w.root
			if wd := workdirOf(c.Arguments); wd != "" {
				dir = resolveIn(w.root, wd)
			}
			named = append(named, w.named(dir, commandOf(c.Arguments))...)
		case tools.NameJobOutput:
			look = true
		}
	}
	if look {
		t.outside = w.before(named)
		// A background job that printed or ended since the last look
		// before a round moved the world, though no file did (a server
		// coming up): what it did during a round is its own, not the
		// round's, so this compares look before look.
		sig := jobsSignature(t.s.opts.Jobs)
		if sig != w.jobs && w.jobs != "" {
			t.outside = append(t.outside, "background job output")
		}
		w.jobs = sig
	}
	return look, named
}

// jobsSignature sums up what the session's jobs have done so far: their
// ids, output sizes and whether each still runs.
func jobsSignature(js *tools.Jobs) string {
	if js == nil {
		return ""
	}
	var b strings.Builder
	for _, j := range js.List() {
		fmt.Fprintf(&b, "%s:%d:%v;", j.ID, j.OutputBytes, j.Running)
	}
	return b.String()
}

// lookAfter notes the files the round read and changed, and looks again
// when the round looked before it.
func (t *task) lookAfter(outs []outcome, look bool, named []string) {
	w := t.s.world
	if w == nil || w.root == "" {
		return
	}
	for _, o := range outs {
		for _, r := range o.result.Reads {
			w.touch(r.Path, false)
		}
		for _, ch := range o.result.Changes {
			w.touch(ch.Path, true)
		}
	}
	if look {
		w.after(named)
	}
}
