// Package ui is keel's Bubble Tea interface: conversation, plan panel, checkpoint cards, status bar, permission dialog and datalog browser.
//
// The root Model routes and sends intents (methods) to its children,
// which own their state: transcript (ui/transcript: entries, per-width
// render cache, anchored scrolling, and the round that is streaming), planPanel,
// statusBar (with the retry countdown), input (ui/editor: the prompt box
// with history and collapsed pastes), dialogs (questions from the agent), helpView (`?`)
// and browser (the datalog). Every key is a binding of KeyMap, which `?`
// lists whole (keymap_test.go checks both). Agent events reach Update through
// one re-arming command (drain) that also carries the Bridge's questions;
// the agent never calls Program.Send and the UI goroutine never blocks.
//
// The editor sends prompts with @file mentions (ui/editor: files listed
// and read in commands through a Workspace, ranked by fuzzy.go),
// !commands (shell.go: the session's run_command behind its policy, the
// output going with the next prompt) and custom /commands (customcmd.go,
// read at start); editor_route.go is the root's side of all three, and
// ui/attach writes the files and outputs into the prompt sent.
//
// Files by concern: model.go (routing), keys.go (the KeyMap is ui/keys), agent_events.go,
// layout.go, view.go (the Styles are ui/theme), and one file per child. View only composes
// cached lines of what is visible; streamed text is redrawn on frame ticks
// (at most 60 a second), and nothing ticks while keel is idle.
package ui
