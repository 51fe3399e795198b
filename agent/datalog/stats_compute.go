package datalog

import (
	"encoding/json"
	"sort"
)

func isEdit(name string) bool { return name == "write_file" || name == "edit_file" }

// callArgs are the argument fields stats look at.
type callArgs struct {
	Path    string `json:"path"`
	Offset  int    `json:"offset"`
	Limit   int    `json:"limit"`
	Command string `json:"command"`
}

func parseArgs(s string) callArgs {
	var a callArgs
	_ = json.Unmarshal([]byte(s), &a) // invalid arguments count as empty
	return a
}

func computeStats(d *statsData) *Stats {
	st := &Stats{Sessions: len(d.sessions)}
	failed := map[string]int{}
	ivs := map[string]*InterventionStats{}
	for _, sid := range d.sessions {
		calls := d.calls[sid]
		taskOf := map[int]int{} // round → task
		for _, r := range d.rounds[sid] {
			taskOf[r.Seq] = r.TaskSeq
		}
		st.Tasks = append(st.Tasks, taskStats(sid, d.rounds[sid], calls)...)
		for _, c := range calls {
			if c.IsError {
				failed[c.Name]++
			}
		}
		byTask := map[int][]ToolCall{}
		var order []int
		for _, c := range calls {
			t := taskOf[c.Round]
			if _, ok := byTask[t]; !ok {
				order = append(order, t)
			}
			byTask[t] = append(byTask[t], c)
		}
		for _, t := range order {
			st.ReReads = append(st.ReReads, reReads(sid, t, byTask[t])...)
			st.RepeatedCommands = append(st.RepeatedCommands, repeatedCommands(sid, t, byTask[t])...)
			st.UnverifiedEdits = append(st.UnverifiedEdits, unverifiedEdits(sid, t, byTask[t])...)
		}
		countInterventions(ivs, d.ivs[sid], calls)
	}
	st.FailedByTool = sortedCounts(failed)
	for _, v := range ivs {
		st.Interventions = append(st.Interventions, *v)
	}
	sort.Slice(st.Interventions, func(i, j int) bool { return st.Interventions[i].Kind < st.Interventions[j].Kind })
	return st
}

// taskStats sums rounds per task; the first edit is timed from the task's
// first request to the end of the response that asked for the edit.
func taskStats(sid string, rounds []Round, calls []ToolCall) []TaskStats {
	byRound := map[int]Round{}
	var out []TaskStats
	idx := map[int]int{}
	for _, r := range rounds {
		byRound[r.Seq] = r
		i, ok := idx[r.TaskSeq]
		if !ok {
			i = len(out)
			idx[r.TaskSeq] = i
			out = append(out, TaskStats{SessionID: sid, Task: r.TaskSeq})
		}
		t := &out[i]
		t.Rounds++
		t.TokensIn += r.TokensIn
		t.TokensOut += r.TokensOut
		t.TokensCached += r.TokensCached
		t.Cost += r.Cost
	}
	start := map[int]Round{}
	for _, r := range rounds {
		if s, ok := start[r.TaskSeq]; !ok || r.Seq < s.Seq {
			start[r.TaskSeq] = r
		}
	}
	for _, c := range calls {
		r, ok := byRound[c.Round]
		if !ok {
			continue
		}
		t := &out[idx[r.TaskSeq]]
		t.ToolCalls++
		if isEdit(c.Name) && !c.IsError {
			if t.Edits == 0 {
				t.FirstEdit = r.Started.Add(r.Duration).Sub(start[r.TaskSeq].Started)
			}
			t.Edits++
		}
	}
	return out
}

func reReads(sid string, task int, calls []ToolCall) []ReRead {
	counts := map[callArgs]int{}
	var order []callArgs
	for _, c := range calls {
		if c.Name != "read_file" || c.IsError {
			continue
		}
		a := parseArgs(c.Arguments)
		key := callArgs{Path: a.Path, Offset: a.Offset, Limit: a.Limit}
		if counts[key] == 0 {
			order = append(order, key)
		}
		counts[key]++
	}
	var out []ReRead
	for _, k := range order {
		if n := counts[k]; n > 1 {
			out = append(out, ReRead{SessionID: sid, Task: task, Path: k.Path, Offset: k.Offset, Limit: k.Limit, Reads: n})
		}
	}
	return out
}

func repeatedCommands(sid string, task int, calls []ToolCall) []RepeatedCommand {
	counts := map[string]int{}
	var order []string
	for _, c := range calls {
		if c.Name != "run_command" {
			continue
		}
		cmd := parseArgs(c.Arguments).Command
		if counts[cmd] == 0 {
			order = append(order, cmd)
		}
		counts[cmd]++
	}
	var out []RepeatedCommand
	for _, cmd := range order {
		if n := counts[cmd]; n > 1 {
			out = append(out, RepeatedCommand{SessionID: sid, Task: task, Command: cmd, Runs: n})
		}
	}
	return out
}

// unverifiedEdits lists successful edits after which the task ran no
// verifying command: a call the agent marked Verified when it ran (a
// command on the configured list that succeeded).
func unverifiedEdits(sid string, task int, calls []ToolCall) []UnverifiedEdit {
	lastVerify := -1
	for i, c := range calls {
		if c.Verified {
			lastVerify = i
		}
	}
	var out []UnverifiedEdit
	for i, c := range calls {
		if isEdit(c.Name) && !c.IsError && i > lastVerify {
			out = append(out, UnverifiedEdit{SessionID: sid, Task: task, Round: c.Round, Tool: c.Name, Path: parseArgs(c.Arguments).Path})
		}
	}
	return out
}

// countInterventions counts each kind and whether an edit came in the
// three rounds after the one that fired it.
func countInterventions(acc map[string]*InterventionStats, ivs []Intervention, calls []ToolCall) {
	for _, iv := range ivs {
		s := acc[iv.Kind]
		if s == nil {
			s = &InterventionStats{Kind: iv.Kind}
			acc[iv.Kind] = s
		}
		s.Fired++
		for _, c := range calls {
			if isEdit(c.Name) && c.Round > iv.Round && c.Round <= iv.Round+3 {
				s.FollowedByEdit++
				break
			}
		}
	}
}

func sortedCounts(m map[string]int) []ToolCount {
	var out []ToolCount
	for k, v := range m {
		out = append(out, ToolCount{Tool: k, Count: v})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Tool < out[j].Tool
	})
	return out
}
