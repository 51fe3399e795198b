package agent

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/keel-dev/keel/tools"
)

// maxProgressKept bounds the progress reports kept for a call's datalog
// row: the first, and the latest ones.
const maxProgressKept = 50

// progressLog is a running call's progress reports. Reports end when the
// call does: one that trails the call is dropped, so no ToolProgress
// follows the call's ToolFinished.
type progressLog struct {
	mu    sync.Mutex
	steps []tools.Progress
	done  bool
}

// add keeps a report and sends its event, unless the call has ended.
func (p *progressLog) add(pr tools.Progress, send func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return
	}
	if len(p.steps) == maxProgressKept {
		p.steps = append(p.steps[:1], p.steps[2:]...)
	}
	p.steps = append(p.steps, pr)
	send() // under the lock: finish waits for it
}

// finish ends the reports and returns them.
func (p *progressLog) finish() []tools.Progress {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = true
	return p.steps
}

// progressJSON is the reports as the datalog keeps them ("" for none).
func progressJSON(steps []tools.Progress) string {
	if len(steps) == 0 {
		return ""
	}
	b, err := json.Marshal(steps)
	if err != nil {
		return ""
	}
	return string(b)
}

// runTool runs a call's tool; a tool that reports progress has each
// report shown live (a ToolProgress event) and kept for the datalog.
func (s *Session) runTool(ctx context.Context, tool tools.Tool, o *outcome) (tools.Result, error) {
	args := o.args()
	p, ok := tool.(tools.Progressive)
	if !ok {
		return tool.Run(ctx, args)
	}
	log := &progressLog{}
	o.progress = log
	defer log.finish()
	return p.RunProgress(ctx, args, func(pr tools.Progress) {
		log.add(pr, func() { s.out.delta(ToolProgress{CallID: o.call.ID, Name: o.call.Name, Progress: pr}) })
	})
}
