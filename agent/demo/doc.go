// Package demo is keel's built-in demo: a small example Go project with a
// failing test, and a scripted model that works on it through the real
// agent loop and tools, with no network and no LLM.
//
// cmd/keel extracts the project into a temporary directory ([Extract]) and
// runs a normal session there with a [Provider] in place of the LLM. The
// Provider plans, reads the code, runs the tests, edits the bug (asking
// permission in the TUI), verifies, answers cadence checkpoints and
// summarises. It decides each answer from the request it receives — the
// tool results, a "[Checkpoint:" message, a permission denial — so a
// denied edit, a cancelled task or a retried request all go on sensibly.
//
// The project's files are stored with a ".txt" suffix so the go command
// never treats them as part of keel's module; Extract drops the suffix.
package demo
