package agent

import (
	"fmt"

	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/internal/bigargs"
)

// A call's arguments past bigArgs are kept in the history only shortened
// once the call has run: each string value longer than bigValue becomes a
// notice of what was cut (its size, its SHA-256, the file). A 50 MB
// write_file content re-sent with every later request cost memory (the
// history, each request body, each datalog round: issue 26) and tokens no
// model holds; the file on disk has it, and the undo journal its before.
const bigValue = 4 << 10

// shortArgs is call's arguments as the history keeps them once the call
// has met its fate ("ran", "failed", "did not run", "was about to run"),
// and whether they were shortened.
func shortArgs(call llm.ToolCall, fate string) (string, bool) {
	return bigargs.Shorten(call.Arguments, bigArgs, bigValue, func(e bigargs.Elided, path string) string {
		what := "the arguments"
		if e.Key != "" {
			what = fmt.Sprintf("%q", e.Key)
		}
		on, hint := "", ""
		if path != "" {
			on = " on " + path
			if fate == "ran" {
				hint = "; read_file " + path + " shows what the file holds now"
			}
		}
		// What and where first: a log line cut at its width still says it.
		return fmt.Sprintf("[keel: %s of %s for %s%s not kept in the conversation, too large to send again; the call %s; sha256 %s%s]",
			sizeText(e.Bytes), what, call.Name, on, fate, e.SHA256, hint)
	})
}

// sizeText is n bytes for a reader: "52428800 bytes (50.0 MiB)".
func sizeText(n int) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d bytes (%.1f KiB)", n, float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes (%.1f MiB)", n, float64(n)/(1<<20))
}

// aboutToRun is a call's fate before it has run.
const aboutToRun = "was about to run"

// shownArgs is the call's arguments as the events, the datalog and the
// history keep them once it met fate: shortened when too large (its
// notice names the fate), else whole. A fate's shortening is made once:
// ToolFinished and the history's shortening share it, and each costs a
// pass over the content (its SHA-256).
func (o *outcome) shownArgs(fate string) string {
	if o.shortAt != fate {
		o.short, o.isShort = shortArgs(o.call, fate)
		o.shortAt = fate
	}
	if !o.isShort {
		return o.call.Arguments
	}
	return o.short
}

// fate is what became of a call, for its notice.
func (o *outcome) fate() string {
	switch {
	case !o.ran:
		return "did not run"
	case o.result.IsError:
		return "failed"
	}
	return "ran"
}

// shortenBigCalls shortens the arguments of the round's calls that are
// too large, in the outcomes (the datalog's tool-call rows and the
// guards read them) and in the history's assistant message.
func (t *task) shortenBigCalls(outs []outcome) {
	short := map[string]string{}
	for i := range outs {
		o := &outs[i]
		if s := o.shownArgs(o.fate()); o.isShort {
			o.call.Arguments, short[o.call.ID] = s, s
		}
	}
	if len(short) > 0 {
		t.s.conv.shortenCalls(short)
	}
}

// shortenCalls gives the calls of the last assistant message the
// arguments short holds by call id. The message gets new slices: the
// old ones were handed to events.
func (c *conversation) shortenCalls(short map[string]string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := len(c.history) - 1; i >= 0; i-- {
		m := &c.history[i]
		if m.Role != llm.RoleAssistant {
			continue
		}
		calls := append([]llm.ToolCall(nil), m.ToolCalls...)
		for j := range calls {
			if s, ok := short[calls[j].ID]; ok {
				c.histBytes += len(s) - len(calls[j].Arguments)
				calls[j].Arguments = s
			}
		}
		m.ToolCalls = calls
		return
	}
}
