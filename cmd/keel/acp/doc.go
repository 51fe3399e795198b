// Package acp is keel acp: keel as an agent an editor drives through the
// Agent Client Protocol (JSON-RPC over stdio, github.com/coder/acp-go-sdk).
//
// Each ACP session is an agent.Session that cmd/keel builds as it builds
// the TUI's (Options.Open): the same tools, permission policy, discipline,
// plan and datalog. A prompt is a task; its events stream back as
// session/update notifications (message and thought chunks, the plan,
// tool calls and their updates with diffs). A permission question, a
// guard's question and the plan's approval go to the editor through
// session/request_permission; session/cancel cancels the task; when the
// editor offers fs/read_text_file and fs/write_text_file, read_file,
// edit_file and write_file go through it, so keel sees unsaved buffers.
// session/load resumes a session from the datalog and replays it.
package acp
