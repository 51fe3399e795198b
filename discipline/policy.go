package discipline

// Policy holds every threshold. A zero number (or false) disables its rule.
//
// The guards' own settings are in Values, declared by each guard in its
// file and listed by Settings: read them with p.Int("repeat_warn"), change
// them with p.Set("repeat_warn", 0). The checkpoint's settings live
// outside the [discipline] table, so they are fields here.
type Policy struct {
	// ReflectionCadence is the number of tool calls between checkpoints
	// (config's reflection_cadence).
	ReflectionCadence int
	// StallThreshold is how many rounds a plan step may stay active before
	// the reflection report calls it stalled (plan.stall_threshold).
	StallThreshold int
	// Headless turns "ask the user" into halt: nobody is there to answer.
	Headless bool
	// Values are the guards' settings (config's [discipline] table).
	Values
}
