package keellog

import (
	"context"
	"fmt"
	"io"

	"github.com/keel-dev/keel/agent/datalog"
)

// related is what keel log show adds to a session's rounds: the
// subagents it started (each with the ones they started: keel's children
// start none today), and its hook runs.
type related struct {
	*datalog.SessionDetail
	Subagents []subagent        `json:"subagents"`
	HookRuns  []datalog.HookRun `json:"hook_runs"`
	Parent    *datalog.Session  `json:"parent,omitempty"`
}

// subagent is a child session in the tree.
type subagent struct {
	datalog.Session
	Subagents []subagent `json:"subagents,omitempty"`
}

// loadRelated reads a session's tree and hook runs.
func loadRelated(ctx context.Context, db *datalog.DB, d *datalog.SessionDetail) (*related, error) {
	r := &related{SessionDetail: d, Subagents: []subagent{}}
	kids, err := children(ctx, db, d.Session.ID, 0)
	if err != nil {
		return nil, err
	}
	r.Subagents = kids
	if r.HookRuns, err = db.HookRuns(ctx, d.Session.ID); err != nil {
		return nil, err
	}
	if r.HookRuns == nil {
		r.HookRuns = []datalog.HookRun{}
	}
	if id := d.Session.ParentID; id != "" {
		if p, err := db.GetSession(ctx, id); err == nil {
			r.Parent = &p
		}
	}
	return r, nil
}

// children reads the subagent tree below id (depth-bounded: a cycle in a
// damaged datalog must not loop).
func children(ctx context.Context, db *datalog.DB, id string, depth int) ([]subagent, error) {
	if depth > 8 {
		return nil, nil
	}
	list, err := db.Children(ctx, id)
	if err != nil {
		return nil, err
	}
	out := make([]subagent, 0, len(list))
	for _, s := range list {
		kids, err := children(ctx, db, s.ID, depth+1)
		if err != nil {
			return nil, err
		}
		out = append(out, subagent{Session: s, Subagents: kids})
	}
	return out, nil
}

// printRelated prints where a subagent's session came from, its subagent
// tree and its hook runs. w sanitises (printSession's writer).
func printRelated(w io.Writer, r *related) {
	if p := r.Parent; p != nil {
		fmt.Fprintf(w, "  subagent %s of session %s (task call %s)\n", r.Session.Agent, datalog.ShortID(p.ID), r.Session.ParentCallID)
	}
	if len(r.Subagents) > 0 {
		fmt.Fprintln(w, "  subagents:")
		printTree(w, r.Subagents, "    ")
	}
	for _, h := range r.HookRuns {
		what := h.Decision
		if what == "" {
			what = "ok"
		}
		tool := ""
		if h.Tool != "" {
			tool = " (" + h.Tool + ")"
		}
		fmt.Fprintf(w, "  hook  round %d  %s%s %s → %s, exit %d, %s\n", h.Round, h.Event, tool, abridge(h.Command, 60), what, h.ExitCode, dur(h.Duration))
	}
}

// printTree prints subagent sessions as an indented tree.
func printTree(w io.Writer, kids []subagent, indent string) {
	for i, k := range kids {
		branch := "├─"
		if i == len(kids)-1 {
			branch = "└─"
		}
		t := k.Totals
		fmt.Fprintf(w, "%s%s %s  %s  %s  %s, %s, %s  call %s\n", indent, branch, datalog.ShortID(k.ID), k.Agent, k.StopReason,
			count(t.Rounds, "round"), count(t.ToolCalls, "tool call"), money(t.Cost, t.TokensIn+t.TokensOut), k.ParentCallID)
		if k.FirstPrompt != "" {
			fmt.Fprintf(w, "%s   prompt: %s\n", indent, abridge(k.FirstPrompt, 100))
		}
		printTree(w, k.Subagents, indent+"   ")
	}
}
