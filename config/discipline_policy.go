package config

import (
	"slices"

	"github.com/keel-dev/keel/discipline"
)

// DisciplinePolicy is discipline's policy for cfg: the one place the
// shipped thresholds and lists become discipline's, for keel, keel eval and
// tests. Headless sessions have nobody to ask, so questions become halts.
func DisciplinePolicy(cfg *Config, headless bool) discipline.Policy {
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

// DefaultDisciplinePolicy is discipline's policy with keel's shipped
// configuration.
func DefaultDisciplinePolicy(headless bool) discipline.Policy {
	return DisciplinePolicy(Defaults(), headless)
}
