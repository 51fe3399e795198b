package discipline

import (
	"fmt"
	"sync"
)

// table is the registry: every guard, in the order AfterRound runs it.
// A new guard is one file that declares a *Guard (its Kind, settings,
// hooks and state) and one line here; config, keel eval and the docs'
// check read the settings from here.
//
// The order is the precedence within one call (a halt first, then the
// earliest guard here: the error streak, the rerun note, the reread note,
// the repeat warning) and the order of the round-level rules (stall,
// verify, plan_continue, monologue).
func table() []*Guard {
	return []*Guard{
		alternationGuard,
		errorStreakGuard,
		rerunGuard,
		rereadGuard,
		repeatGuard,
		flipFlopGuard,
		jobPollGuard,
		stallGuard,
		verifyGuard,
		planContinueGuard,
		monologueGuard,
		decomposeGuard,
	}
}

// Guard is one rule of discipline.
type Guard struct {
	// Name identifies the guard and its state; Kind is the kind of its
	// notes (its halts are KindHalt); Rank orders its notes in a merged
	// message (lower first).
	Name string
	Kind Kind
	Rank int
	// Settings are its thresholds, switches and lists, as config shows them.
	Settings []*Setting
	// Call observes one call that ran; n is the call's number in the task.
	Call func(s *State, c ToolCall, n int, p *Policy) *Intervention
	// Round runs once a round, after the calls and the plan were observed.
	Round func(sum RoundSummary, p *Policy, s *State) *Intervention
	// Forget runs when a compaction took earlier results out of the
	// model's context.
	Forget func(s *State)
	// WorldChanged runs when files changed outside keel's calls since
	// keel last looked (RoundSummary.WorldChanged), before the calls.
	WorldChanged func(s *State)
	// KeepAcrossTasks keeps the guard's state when a new task starts.
	KeepAcrossTasks bool
}

// registry is the table with its settings indexed.
type registry struct {
	guards   []*Guard
	settings []*Setting
	byKey    map[string]*Setting
	rank     map[Kind]int
}

var (
	registryOnce sync.Once
	reg          *registry
)

// registered returns the registry, built on first use (every keel process
// links discipline; most never run a guard).
func registered() *registry {
	registryOnce.Do(func() { reg = buildRegistry(table()) })
	return reg
}

// buildRegistry gives each setting its slot and checks the table: unique
// names and keys, and no more settings of a kind than Values holds.
func buildRegistry(guards []*Guard) *registry {
	r := &registry{guards: guards, byKey: map[string]*Setting{}, rank: map[Kind]int{KindHalt: 0, KindReflection: rankCheckpoint}}
	var used [3]int
	limit := [3]int{maxInts, maxBools, maxLists}
	names := map[string]bool{}
	for _, g := range guards {
		if names[g.Name] {
			panic(fmt.Sprintf("discipline: two guards named %q", g.Name))
		}
		names[g.Name] = true
		r.rank[g.Kind] = g.Rank
		for _, s := range g.Settings {
			if _, dup := r.byKey[s.Key]; dup {
				panic(fmt.Sprintf("discipline: setting %q declared twice", s.Key))
			}
			if used[s.Kind] == limit[s.Kind] {
				panic(fmt.Sprintf("discipline: more settings of kind %d than Values holds (%d)", s.Kind, limit[s.Kind]))
			}
			s.slot = used[s.Kind]
			used[s.Kind]++
			r.byKey[s.Key] = s
			r.settings = append(r.settings, s)
		}
	}
	return r
}

// rankCheckpoint puts the checkpoint's questions last in a message.
const rankCheckpoint = 7

// rankOf is the place of a finding of kind k in a merged message.
func rankOf(k Kind) int {
	if r, ok := registered().rank[k]; ok {
		return r
	}
	return rankCheckpoint
}

// known reports whether some guard (or the checkpoint) fires kind k.
func known(k Kind) bool {
	_, ok := registered().rank[k]
	return ok
}
