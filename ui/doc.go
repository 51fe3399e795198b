// Package ui is keel's Bubble Tea interface. Its root Model routes and
// composes; the children own their state, each in its package:
// ui/transcript (the conversation, its render cache, anchored scrolling,
// the round that is streaming), ui/editor (the prompt box: history,
// pastes, @file mentions, completions), ui/dialog (the agent's questions
// and the Bridge that carries them), ui/planpanel, ui/statusbar (with the
// retry countdown), ui/helpview (`?`), ui/browser (the datalog),
// ui/welcome, ui/shellcmd (the user's !commands) and ui/customcmd (custom
// /commands read from files). They draw with the one theme.Styles, answer
// the one keys.KeyMap (keymap_test.go checks that `?` lists every binding
// and that no handler compares a key itself), and share ui/common's
// helpers.
//
// The root sends intents (methods) to its children and passes them the
// results of their commands; no child reaches into another's state. Agent
// events reach Update through one re-arming command (drain) that also
// carries the Bridge's questions; the agent never calls Program.Send and
// the UI goroutine never blocks.
//
// Files by concern: model.go (routing), keys.go, agent_events.go,
// layout.go, view.go; editor_route.go is the root's side of what the
// editor sends (prompts with their @files and !command outputs, custom
// /commands), slash*.go the /commands, browse_route.go the browser's
// actions. View only composes cached lines of what is visible; streamed
// text is redrawn on frame ticks (at most 60 a second), and nothing ticks
// while keel is idle. Nothing in Update or View reads a file or the
// network.
package ui
