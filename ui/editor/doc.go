// Package editor is the prompt box: a text editor (ui/textedit) with the
// prompt history (↑ and ↓ across launches, kept per workspace in a
// JSON-lines file read and appended in commands), pastes of ten lines or
// more collapsed to a placeholder and sent whole, @file mentions (files
// listed and read in commands through a Workspace, ranked by fuzzy.go,
// drawn as chips), and the completion list under the box (@files, and the
// /commands the root model offers).
//
// The Model owns all of it. The root model passes it keys and pastes
// (Update, CompletionKey), the results of its commands (FilesLoaded,
// MentionRead, HistoryLoaded), and takes the prompt when it is sent
// (Take, Attachments, TakeUnsaved). Nothing here runs in Update but
// editing: disk and workspace reads happen in the commands it returns.
package editor
