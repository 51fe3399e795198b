package discipline

// Policy holds every threshold. A zero number (or false) disables its rule.
type Policy struct {
	// ReflectionCadence is the number of tool calls between checkpoints.
	ReflectionCadence int
	// Reread is the number of reads of the same span (first and last
	// line) of one unchanged file version at which the reread note fires:
	// 3 fires at the second repeat. A narrower, wider or shifted read is
	// another span and never counts. Values below 2 act as 2.
	Reread int
	// RepeatWarn and RepeatHalt count identical calls (tool, normalized
	// arguments, result hash, error flag) since files last changed.
	RepeatWarn int
	RepeatHalt int
	// ErrorStreak and ErrorStreakHalt count one tool failing with the same
	// normalized error line in a row.
	ErrorStreak     int
	ErrorStreakHalt int
	// StallCalls is the number of tool calls with no edit and no plan step
	// completed before a nudge; it repeats after another StallCalls.
	StallCalls int
	// StallThreshold is how many rounds a plan step may stay active before
	// the reflection report calls it stalled.
	StallThreshold int
	// Verify reminds a model that ends its turn with unverified edits.
	Verify bool
	// PlanContinue reminds a model that ends its turn with open plan steps.
	PlanContinue bool
	// PlanContinueMax is how many reminders in a row without plan progress
	// come before the task stops with plan_failed; 0 reminds once per
	// unchanged plan and never stops.
	PlanContinueMax int
	// MonologueWarn and MonologueHalt count the model's turn-ending
	// answers in a row with the same normalized text and no tool call.
	MonologueWarn, MonologueHalt int
	// AlternationHalt is the length of an A,B,A,B… run of two calls, each
	// returning what it returned before, at which the task halts (asks the
	// user when one is there). Values below 4 disable it.
	AlternationHalt int
	// VerifyPatterns are command prefixes (as words) that verify an edit
	// when they succeed, e.g. "go test". They may appear after "&&", ";"
	// or "|" and after environment assignments. The list is config's
	// (config.DefaultVerifyPatterns); none here means no command verifies.
	VerifyPatterns []string
	// VerifySkipSuffixes are file suffixes whose edits need no check
	// (prose such as ".md"); compared case-insensitively.
	VerifySkipSuffixes []string
	// Headless turns "ask the user" into halt: nobody is there to answer.
	Headless bool
}
