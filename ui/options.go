package ui

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/tools"
	"github.com/keel-dev/keel/ui/customcmd"
	"github.com/keel-dev/keel/ui/dialog"
	"github.com/keel-dev/keel/ui/editor"
	"github.com/keel-dev/keel/ui/shellcmd"
)

// Options configure the UI. Only cmd/keel fills them.
type Options struct {
	// Session is the conversation; nil shows the welcome screen (no usable
	// provider is configured).
	Session *agent.Session
	// Bridge answers the session's permission and guard questions; it must
	// be the Gate and Asker the session was made with.
	Bridge *dialog.Bridge
	// DB is the datalog, for the browser; nil disables it.
	DB *datalog.DB
	// Resumed is the datalog's record of the resumed session
	// (datalog.LoadTranscript): its transcript is rebuilt from it as it
	// looked live. Nil, or another session's, rebuilds it from the
	// session's history alone.
	Resumed *datalog.SessionDetail
	// ResumedRest loads the whole record when Resumed holds only the
	// session's last rounds (Resumed.Tail); the UI runs it in a Cmd after
	// its first frame and puts the earlier rounds above. Nil: none.
	ResumedRest func() *datalog.SessionDetail

	ProviderLabel string // e.g. "openai" or "ollama"
	Model         string
	ContextWindow int // tokens; 0 when unknown
	Cadence       int // reflection cadence in tool calls; 0 when off
	Demo          bool
	Mouse         bool // capture the mouse (wheel scrolling) at the cost of native selection
	Dark          *bool
	NoColor       bool // NO_COLOR: Run sets it from the environment

	// ConfigPath is the user's config file, the one keel config init
	// writes; the welcome screen names it ("" when unknown).
	ConfigPath string

	// Notices are one-line notes shown when the UI starts (the sandbox
	// is off, config keys were ignored).
	Notices []string
	// Banner is shown first, dim: where keel runs, the model, the
	// project's instructions (cmd/keel's startBanner).
	Banner []string

	// Width and Height fix the size (tests); the terminal's size wins in Run.
	Width, Height int
	// Terminal, when set, is the colour profile found while the session
	// was built (ProbeTerminal); nil lets Bubble Tea find it at start.
	Terminal *TerminalProbe

	// Workspace offers files after @ and reads the one chosen; nil
	// turns @ completion off.
	Workspace editor.Workspace
	// Shell runs !commands through the session's policy; nil says they
	// are not available.
	Shell *shellcmd.Shell
	// Commands are the directories of custom /commands.
	Commands customcmd.Dirs
	// Status is what /status shows besides the model and session.
	Status StatusInfo
	// HistoryFile keeps the prompts sent in this workspace across
	// launches (HistoryFile(nil, root)); "" keeps them for this run only.
	HistoryFile string

	// Hooks for the slash commands the UI cannot do alone. Each returns a
	// command whose message (a NoticeMsg, a SessionMsg, ...) reports the
	// outcome; nil hooks make the command say it is not available.
	Undo     func() tea.Cmd
	Compact  func() tea.Cmd
	SetModel func(name string) tea.Cmd
	// Resume switches to a logged session. Nil: the program quits and Run
	// returns a *ResumeRequest for cmd/keel to act on.
	Resume func(id string) tea.Cmd
	// MCP reports the MCP servers' state, tools and stderr (/mcp).
	MCP func() tea.Cmd
	// MCPPrompts lists the MCP servers' prompts, offered as
	// /SERVER:PROMPT commands (asked again as servers start).
	MCPPrompts func() []MCPPrompt
	// RunMCPPrompt gets a prompt's text for the words typed after its
	// command; it is called in a command, never in Update.
	RunMCPPrompt func(ctx context.Context, command, args string) (text string, images []tools.Image, err error)
	// LateNotices are one-line notes that arrive while the UI runs (an MCP
	// server that could not start or stopped); nil when none can.
	LateNotices <-chan string
}

// NoticeMsg shows a one-line note in the conversation; hooks return it to
// report what they did ("restored 2 files").
type NoticeMsg struct{ Text string }

// ErrorMsg shows a one-line error card; Text should say what to do.
type ErrorMsg struct{ Text string }

// SessionMsg replaces the session (after /resume or /model): the
// transcript is rebuilt from its history and its events are drained.
type SessionMsg struct {
	Session       *agent.Session
	ProviderLabel string // "" keeps the current one
	Model         string // "" keeps the current one
}

// ModelChangedMsg updates the model name the status bar shows.
type ModelChangedMsg struct{ Model string }

// ErrDemoRequested is returned by Run when the user chose the demo on the
// welcome screen; cmd/keel starts it.
var ErrDemoRequested = errors.New("the demo was requested")

// ResumeRequest is returned by Run when the user asked to resume a logged
// session and Options.Resume is nil: cmd/keel resumes it and runs the UI
// again.
type ResumeRequest struct{ SessionID string }

// Error implements error.
func (r *ResumeRequest) Error() string { return "resume session " + r.SessionID }
