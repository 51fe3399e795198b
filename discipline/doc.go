// Package discipline holds keel's post-round discipline as pure functions:
// a round summary, a policy and carried state in; interventions and new
// state out. It imports only the standard library, reads no clock and does
// no I/O: the agent injects, shows, logs, asks and halts.
//
// # Rules
//
// After every LLM round the agent builds a [RoundSummary] and calls
// [AfterRound]. Each guard is one file declaring a [Guard] (its kind, its
// settings with their defaults, its hooks and its own state) and one line
// in the registry (registry.go); config's [discipline] keys, keel eval's
// settings and the docs' check come from [Settings]. The rules, each with
// a threshold in [Policy] (0 or false disables it):
//
//   - reflection: a scheduled checkpoint after the round that crosses each
//     multiple of ReflectionCadence tool calls (10, 20, 30… wherever
//     parallel calls made the last one land; see [NextCheckpointAt],
//     [Report]).
//   - reread, then halt: the Reread-th (note) and RereadHalt-th (in a
//     task: stop) read of exactly the same lines of one unchanged file
//     version, however spelled (see [CommandRead]); sub-ranges, paging and
//     other spans never count.
//   - repeat, then halt: the same call with the same result, again and
//     again, with nothing changed in between.
//   - rerun, then halt: one command (where and how it ran) failing again
//     with nothing changed in between, whatever its error text.
//   - error_streak, then halt: one tool failing in a row with the same
//     identity: what it acted on (the command with its working directory,
//     or the file) and the most informative line of its output (see
//     [FailureLine]).
//   - flip_flop halt: a file going back, for the FlipFlopHalt-th time, to
//     a content it already had in the task (by hash).
//   - alternation halt: A,B,A,B… calls, each returning what it did before.
//   - job_poll: polls of a running background job with no new output; a
//     nudge, never a halt; new output is progress.
//   - stall: many calls with no edit and no plan step completed. Never halts.
//   - verify: the model ends its turn with edits no check has passed since.
//   - plan_continue: the model ends its turn with plan steps still open;
//     after PlanContinueMax reminders the task stops with plan_failed.
//   - monologue, then halt: the same answer with no tool call, again and
//     again (see [NormalizeText]); its stop never replans.
//
// "Nothing changed" is no edit by any call and no change outside keel
// (RoundSummary.WorldChanged, the agent's workspace check).
//
// docs/DISCIPLINE.md states each rule's threshold, config key, and what it
// will not fire on.
//
// # Building a RoundSummary
//
// One ToolCall per call that ran, in order: Args from [NormalizeArgs],
// ResultHash from [HashOutput] of the text the model saw, IsError, the
// failure text in ErrorLine (a command's whole output), Command, Workdir
// and ExitCode for run_command, Reads from the tool's file spans (for
// run_command, [CommandRead] recognises cat, head, tail, sed -n, awk and
// pipelines of them; the agent resolves the path, stats the file and
// fills Version and Total), Changed from the files written and Edits
// with their contents' hashes, Job for a call that started or read a
// background job. The round carries EndedTurn and the answer's Text, the
// plan as a [PlanView], Compacted when a compaction ran since the last
// summary, WorldChanged when files changed outside keel, the task's
// tool-call count, and the context figures. Call [NewTask] when a user
// task starts.
//
// The plan issue's pure parts live here too: [ReplanMessage] and
// [ReplanStrategy] for backtracking, and [Report] for the reflection
// report a checkpoint carries and the plan panel shows.
//
// # Precedence
//
// halt > ask the user > inject; among stops, the plan rule's plan_failed.
// Each call yields at most one finding (a halt, else the first in the
// registry: the error streak, the rerun note, the reread note, the repeat
// warning). Several rules may still fire in one round; each is returned
// as its own [Intervention] (one card and one datalog row each), but the
// model receives one message per pause: when a checkpoint is due, the
// other findings become lines of it (marked Folded, a stall nudge too);
// otherwise [Merge] sends one finding's message, or several as one
// short list of their notes. A halt drops the message. An ask pauses for
// the user; the message is sent only if the user lets the task continue.
//
// Halts are never hidden: in interactive sessions (Policy.Headless false)
// a halt becomes a question to the user (Action Ask); headless, it stops
// the task with StopReason "loop_detected" ("plan_failed" for plan_continue).
package discipline
