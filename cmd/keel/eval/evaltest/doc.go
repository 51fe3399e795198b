// Package evaltest holds scripted models for testing keel eval: models
// that work through the real agent loop on the bundled suite and drift
// in known ways.
//
// Every model plays its task's reference solution (eval.Task.Reference),
// one tool call per answer, and then gives the reference answer. The
// drifting kinds insert a drift of K calls, K drawn from a seed that
// hashes the system prompt (which names the run's temporary directory,
// so runs differ):
//
//   - Good: no drift.
//   - Rereader: right after reading the file it will edit (in a task
//     without edits, its last read), reads that same file again, K in
//     [4, 9] times.
//   - Retrier: before anything else, runs the task's probe — a command
//     that fails in the untouched project — K in [4, 9] times.
//   - Wanderer: before anything else, explores the project without
//     progress, K in [12, 20] calls cycling through list_dir ".", a read
//     and a grep per project file, and a glob; past one cycle its calls
//     repeat.
//
// The rule that makes the models honest: a drifting model stops drifting
// at the first note keel sends while it drifts — any user message after
// the prompt, i.e. a checkpoint or a guard's note — says so in its next
// answer, and goes on with the reference solution from where it left it.
// Notes that arrive outside a drift are ignored (the solution is already
// the right course). Two more rules, for the reasoning loop (issue 28):
// a checkpoint that asks for a reflect call gets one (adjustment
// continue) beside the model's next call; and a model offered lessons
// with its prompt (keel's "[keel] Lessons ..." note, not counted as a
// note) skips its drift when a lesson's "failed:" line names it as
// keel's guards recorded it (reread for the rereader, error_streak or
// repeat for the retrier, stall, repeat or halt for the wanderer). That
// last rule makes lessons help by construction: what an A/B of lessons
// on these models measures is that keel stores the lesson, ranks it and
// offers it to the next run, and what it costs, not what a real model
// would make of it. Nothing else about the conversation changes what a
// model does, so the difference between discipline on and off is what
// keel's notes caused.
//
// Each model is a pure function of the request's messages ([Model.Next]),
// so the same model serves in-process ([Provider]) and over HTTP through
// agent/llmtest ([Handler]) for the real binary.
package evaltest
