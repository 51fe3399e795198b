package discipline

import (
	"fmt"
	"maps"
)

// KindRerun is the rerun guard's note.
const KindRerun Kind = "rerun"

var (
	rerunWarn = intSetting("rerun_warn", 3, "note at this many failing runs of one command with nothing changed between them, whatever the error; 0 disables")
	rerunHalt = intSetting("rerun_halt", 4, "ask the user (headless: halt) at this many; 0 disables")
)

var rerunGuard = &Guard{
	Name: "rerun", Kind: KindRerun, Rank: 1,
	Settings:     []*Setting{rerunWarn, rerunHalt},
	Call:         observeRerun,
	Forget:       func(s *State) { delete(s.own, "rerun") },
	WorldChanged: func(s *State) { delete(s.own, "rerun") },
}

// reruns counts, per command (where and how it ran), its failing runs
// since anything changed.
type reruns struct{ failures map[string]int }

func (r *reruns) clone() guardState { return &reruns{failures: maps.Clone(r.failures)} }

// observeRerun catches one command run again and again with nothing
// changed in between, failing each time, whatever its output says: an
// error text that differs run to run (a timestamp, a random port, a
// flaky message) hides the loop from the repeat and error-streak guards.
// "Nothing changed" is no edit by any call and no change keel's
// workspace check saw (RoundSummary.WorldChanged); a success of the
// command ends its run. Other commands between the runs do not: reading
// files between test runs changes nothing the test sees.
func observeRerun(s *State, c ToolCall, call int, p *Policy) *Intervention {
	r := stateOf[reruns](s, "rerun")
	if len(c.Changed) > 0 {
		r.failures = nil
	}
	if c.Command == "" || (c.Job != nil && c.Job.Started) {
		return nil
	}
	key := commandIdentity(c)
	if !failed(c) {
		delete(r.failures, key)
		return nil
	}
	if r.failures == nil {
		r.failures = map[string]int{}
	}
	r.failures[key]++
	n := r.failures[key]
	warn, halt := p.num(rerunWarn), p.num(rerunHalt)
	shown := describeCall(c)
	if halt > 0 && n >= halt {
		delete(r.failures, key) // ask once; if the user lets the task go on, count again
		return escalate(p, call,
			fmt.Sprintf("%s failed %s with nothing changed between the runs (halt at %d)", shown, plural(n, "time"), halt),
			fmt.Sprintf("keel stopped a loop: %s failed %s, and nothing changed between the runs (no edit, no file keel watches). Running it again will not help: change the code, the command or its environment first, or try a different approach.", shown, plural(n, "time")),
			map[string]int{"runs": n, "halt_at": halt})
	}
	if warn <= 0 || n != warn {
		return nil
	}
	return &Intervention{
		Kind:       KindRerun,
		AtToolCall: call,
		Action:     Inject,
		Message: fmt.Sprintf("%s has failed %s, and nothing changed between the runs, even if the error text differed. Running it again unchanged is unlikely to help: change the code or the command first, or try a different approach.",
			upperFirst(shown), plural(n, "time")),
		Note:    fmt.Sprintf("%s failed %s with nothing changed between the runs: change something before running it again.", shown, plural(n, "time")),
		Why:     fmt.Sprintf("%s failed %s with nothing changed between the runs", shown, plural(n, "time")),
		Figures: map[string]int{"runs": n, "warn_at": warn},
	}
}
