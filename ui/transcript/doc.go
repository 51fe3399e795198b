// Package transcript is the conversation as the TUI shows it: the user's
// prompts (with their @file chips and !command outputs), the model's
// answers (markdown, streamed and redrawn at most once a frame) and
// reasoning, tool calls with their outcome, diff and failure preview,
// checkpoint and guard cards, notices and error cards.
//
// The Model owns its entries, each entry's rendering cached per width,
// the scroll position (anchored to an entry, so only what is on screen is
// ever rendered), the selection, and the round that is streaming. The root
// model sends it intents (AppendAnswer, StartTool, AddCard, ScrollUp, ...)
// and routes FrameMsg back to Frame. LoadHistory and LoadLog rebuild a
// resumed session as it looked live, from its history or from the
// datalog's record; Replay builds the entries off the update loop.
// Nothing here reads a file or the network.
package transcript

import "time"

// FrameInterval coalesces stream deltas: the streaming answer is redrawn
// at most this often (60 fps).
const FrameInterval = time.Second / 60

// FrameMsg is the frame tick ScheduleFrame asks for; the root model
// passes it to Frame.
type FrameMsg struct{}
