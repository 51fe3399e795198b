// Package ui is keel's Bubble Tea interface: conversation, plan panel, checkpoint cards, status bar, permission dialog and datalog browser.
//
// The root Model routes; children own their state: transcript (entries,
// per-width render cache, anchored scrolling), planPanel, statusBar, input
// (an editor with history and collapsed pastes), dialogs (questions from
// the agent) and browser (the datalog). Agent events reach Update through
// one re-arming command (drain) that also carries the Bridge's questions;
// the agent never calls Program.Send and the UI goroutine never blocks.
//
// Files by concern: model.go (routing), keys.go and keymap.go, agent_events.go,
// layout.go, view.go, styles.go, and one file per child. View only composes
// cached lines of what is visible; streamed text is redrawn on frame ticks
// (at most 60 a second), and nothing ticks while keel is idle.
package ui
