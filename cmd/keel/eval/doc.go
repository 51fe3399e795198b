// Package eval is keel's A/B harness (`keel eval`): it runs a bundled
// suite of small coding tasks through the real agent loop, N times with
// two sets of discipline settings, each run in a throwaway copy of the
// task's project, decides from the files and the final answer whether
// each run solved its task, and compares the two settings with
// confidence intervals.
//
// The suite ([Suite]) is embedded: one directory per task under suite/,
// holding task.json (prompt, permission rules, checker, a reference
// solution) and the project's files, each stored with an extra ".txt"
// suffix so the go command never treats them as part of keel's module.
//
// Settings ([ParseSettings]) are config keys (reflection_cadence,
// discipline.repeat_halt, ...) plus the shorthands guards=on|off and
// discipline=on|off; they are applied to a copy of the user's
// configuration. [Run] takes a [Builder] that turns that configuration
// into a session (cmd/keel wires the real one), so this package never
// knows providers, the sandbox or the datalog.
//
// What a run measured ([RunResult]) is computed from the session's own
// events: tool calls, interventions, usage and the stop reason; wasted
// calls are classified in waste.go. [Summarize] turns runs into a
// [Report] with Wilson intervals for solve rates, Student t intervals for
// means, and intervals for the difference B − A; [Report.WriteText]
// prints the table and the one-line verdict.
package eval
