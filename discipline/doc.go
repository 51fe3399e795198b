// Package discipline holds keel's post-round discipline as pure functions:
// a round summary, a policy and carried state in; interventions and new
// state out. It imports only the standard library, reads no clock and does
// no I/O: the agent injects, shows, logs, asks and halts.
//
// # Rules
//
// After every LLM round the agent builds a [RoundSummary] and calls
// [AfterRound]. The rules, each with a threshold in [Policy] (0 or false
// disables it):
//
//   - reflection: every ReflectionCadence tool calls, a scheduled
//     checkpoint (see [ShouldReflect], [ReflectionPrompt], [Report]).
//   - reread: a read that returns only lines already returned from the
//     same, unchanged file version (see [CommandRead]).
//   - repeat, then halt: the same call with the same result, again and again.
//   - error_streak, then halt: the same tool failing the same way in a row.
//   - stall: many calls with no edit and no plan step completed. Never halts.
//   - verify: the model ends its turn with edits no check has passed since.
//   - plan_continue: the model ends its turn with plan steps still open.
//
// # Building a RoundSummary
//
// One ToolCall per call that ran, in order: Args from [NormalizeArgs],
// ResultHash from [HashOutput] of the text the model saw, IsError, the
// failure text in ErrorLine, Command and ExitCode for run_command, Reads
// from the tool's file spans (for run_command, [CommandRead] recognises
// cat, head, tail, sed -n and less; the agent resolves the path, stats
// the file and fills Version and Total), Changed from the files written.
// The round carries EndedTurn, the plan as a [PlanView], Compacted when a
// compaction ran since the last summary, the task's tool-call count, and
// the context figures. Call [NewTask] when a user task starts.
//
// The plan issue's pure parts live here too: [ReplanMessage] and
// [ReplanStrategy] for backtracking, and [Report] for the reflection
// report a checkpoint carries and the plan panel shows.
//
// # Precedence
//
// halt > ask the user > inject. Several rules may fire in one round; each
// is returned as its own [Intervention] (one card and one datalog row each),
// but the model receives at most one injected message per round: [Decide]
// merges every inject-action finding into one text, a line (or paragraph)
// each, and drops it when a halt wins. An ask pauses for the user; the
// merged text is sent only if the user lets the task continue.
//
// Halts are never hidden: in interactive sessions (Policy.Headless false)
// a halt becomes a question to the user (Action Ask); headless, it stops
// the task with StopReason "loop_detected".
package discipline
