// Package policy maps keel's configuration onto the policies of the
// packages that take plain values (discipline), in one place: cmd/keel,
// keel eval and tests build the shipped policy through it instead of
// restating thresholds.
package policy

import (
	"slices"

	"github.com/keel-dev/keel/config"
	"github.com/keel-dev/keel/discipline"
)

// Discipline is discipline's policy for cfg. Headless sessions have
// nobody to ask, so questions become halts.
func Discipline(cfg *config.Config, headless bool) discipline.Policy {
	d := cfg.Discipline
	return discipline.Policy{
		ReflectionCadence: cfg.ReflectionCadence,
		Reread:            d.Reread, RepeatWarn: d.RepeatWarn, RepeatHalt: d.RepeatHalt,
		ErrorStreak: d.ErrorStreak, ErrorStreakHalt: d.ErrorStreakHalt, StallCalls: d.StallCalls,
		StallThreshold: cfg.Plan.StallThreshold,
		Verify:         d.Verify, PlanContinue: d.PlanContinue, PlanContinueMax: d.PlanContinueMax,
		MonologueWarn: d.MonologueWarn, MonologueHalt: d.MonologueHalt, AlternationHalt: d.AlternationHalt,
		VerifyPatterns:     append(slices.Clone(d.VerifyPatterns), d.VerifyPatternsExtra...),
		VerifySkipSuffixes: slices.Clone(d.VerifySkipSuffixes),
		Headless:           headless,
	}
}

// Defaults is discipline's policy with keel's shipped configuration.
func Defaults(headless bool) discipline.Policy {
	return Discipline(config.Defaults(), headless)
}
