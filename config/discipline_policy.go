package config

import "github.com/keel-dev/keel/discipline"

// DisciplinePolicy is discipline's policy for cfg: the one place the
// configured thresholds and lists become discipline's, for keel, keel eval
// and tests. Headless sessions have nobody to ask, so questions become
// halts.
func DisciplinePolicy(cfg *Config, headless bool) discipline.Policy {
	return discipline.Policy{
		ReflectionCadence: cfg.ReflectionCadence,
		StallThreshold:    cfg.Plan.StallThreshold,
		Headless:          headless,
		Values:            cfg.Discipline.Clone(),
	}
}

// DefaultDisciplinePolicy is discipline's policy with keel's shipped
// configuration.
func DefaultDisciplinePolicy(headless bool) discipline.Policy {
	return DisciplinePolicy(Defaults(), headless)
}
