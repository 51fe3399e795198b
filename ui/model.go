package ui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/ui/browser"
	"github.com/keel-dev/keel/ui/common"
	"github.com/keel-dev/keel/ui/customcmd"
	"github.com/keel-dev/keel/ui/dialog"
	"github.com/keel-dev/keel/ui/editor"
	"github.com/keel-dev/keel/ui/helpview"
	"github.com/keel-dev/keel/ui/keys"
	"github.com/keel-dev/keel/ui/planpanel"
	"github.com/keel-dev/keel/ui/shellcmd"
	"github.com/keel-dev/keel/ui/statusbar"
	"github.com/keel-dev/keel/ui/theme"
	"github.com/keel-dev/keel/ui/transcript"
)

// Model is keel's root Bubble Tea model. It routes messages to its
// children (transcript, plan panel, status bar, input, dialogs, browser),
// which own their state.
type Model struct {
	opts         Options
	datalogAlert string // the datalog cannot save: the banner's text (datalog_banner.go)
	ctx          context.Context
	session      *agent.Session
	st           theme.Styles
	keys         keys.KeyMap
	// resumedTail is where the transcript holds a resumed session's last
	// rounds (entries [0]:[1]) until its whole record replaces them.
	resumedTail [2]int
	now         func() time.Time // the clock of the type-ahead guard (tests set it)
	lastTyped   time.Time        // when a character was last typed into the input

	tr      *transcript.Model // the conversation, and the round that is streaming
	calling bool              // the last response asked for tool calls: its text answered a checkpoint, not the task
	plan    planpanel.Model
	status  statusbar.Model // the agent's state, and the retry countdown
	input   editor.Model
	dialogs dialog.Model
	help    helpview.Model
	shell   shellcmd.Runs // the user's !commands
	// shellEntries are the transcript's entries of the !commands that run.
	shellEntries map[int]*transcript.Entry
	browser      *browser.Model      // nil when closed
	custom       []customcmd.Command // custom /commands, read at start

	width, height int
	running       bool     // a task is in progress (as far as the UI knows)
	queue         []queued // prompts typed while a task runs, in order
	spinning      bool     // the spinner tick is running
	spinFrame     int      // the spinner's frame, drawn by every child that shows work
	quitArmed     bool     // ctrl+c was pressed once
	stopping      bool     // the running task was asked to stop (esc, ctrl+c)
	resumeID      string
	demoAsked     bool // the welcome screen's d: Run returns ErrDemoRequested
	historyWarned bool // the prompt history file failed once (said once)
	gen           int  // drain generation, bumped when the session is replaced
	ruleW         int  // width the rule above the input was drawn for
	ruleS         string
}

// New makes the root model. Run calls it; tests drive it directly.
func New(opts Options) *Model {
	dark := true
	if opts.Dark != nil {
		dark = *opts.Dark
	}
	st := theme.New(dark, opts.NoColor)
	km := keys.Default()
	m := &Model{
		opts:    opts,
		ctx:     context.Background(),
		session: opts.Session,
		st:      st,
		keys:    km,
		tr:      transcript.New(st),
		plan:    planpanel.New(opts.ContextWindow),
		status: statusbar.New(statusbar.Options{Provider: opts.ProviderLabel, Model: opts.Model, ContextWindow: opts.ContextWindow,
			Cadence: opts.Cadence, Demo: opts.Demo}),
		input:   editor.New(st, km, opts.Workspace),
		dialogs: dialog.New(km),
		now:     time.Now,

		shellEntries: map[int]*transcript.Entry{},
		width:        opts.Width,
		height:       opts.Height,
	}
	if opts.Demo {
		m.input.SetPlaceholder(demoHint)
	}
	for _, line := range opts.Banner {
		m.notice(line)
	}
	m.showSession(opts.Session)
	for _, n := range opts.Notices {
		m.notice(n)
	}
	m.layout()
	return m
}

// Init starts draining the session's events and the bridge's questions.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(m.drain(), tea.RequestBackgroundColor, customcmd.Load(m.opts.Commands), waitNotice(m.opts.LateNotices),
		editor.LoadHistoryCmd(m.historyFile()), m.afterFirstFrame())
}

// ResumeRequested is the session the user asked to resume ("" if none).
func (m *Model) ResumeRequested() string { return m.resumeID }

// DemoRequested reports whether the user chose the demo on the welcome screen.
func (m *Model) DemoRequested() bool { return m.demoAsked }

// Update routes a message to the part of the UI that owns it.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return m, nil
	case tea.BackgroundColorMsg:
		m.setDark(msg.IsDark())
		return m, nil
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case tea.PasteMsg:
		return m, m.handlePaste(msg)
	case tea.MouseWheelMsg:
		m.handleWheel(msg)
		return m, nil
	case eventsMsg:
		return m, tea.Batch(m.handleEvents(msg), m.drain())
	case requestMsg:
		m.dialogs.Push(msg.r, m.now(), m.lastTyped)
		if id := msg.r.CallID(); id != "" {
			m.tr.HoldClock(id) // waiting for the user is not running
		}
		if msg.gen != m.gen {
			return m, nil // the replaced session's drain ends here
		}
		return m, m.drain()
	case transcript.FrameMsg:
		m.tr.Frame()
		return m, nil
	case spinMsg:
		return m, m.spin(msg)
	}
	return m, m.handleOther(msg)
}

// handleOther takes the results of commands and the exported messages.
func (m *Model) handleOther(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case submitErrMsg:
		m.running = false
		m.errorCard(msg.err.Error())
	case browser.SessionsMsg, browser.DetailMsg:
		if m.browser != nil {
			m.browser.Loaded(msg)
		}
	case NoticeMsg:
		m.notice(msg.Text)
	case lateNoticeMsg:
		m.notice(common.Clean(msg.text))
		return waitNotice(m.opts.LateNotices)
	case ErrorMsg:
		m.errorCard(msg.Text)
	case ModelChangedMsg:
		m.status.SetModel(msg.Model)
		m.notice("model: " + msg.Model)
	case SessionMsg:
		return m.setSession(msg)
	default:
		return m.handleInput(msg)
	}
	return nil
}

// handleInput takes the results of the editor's commands: the workspace's
// files, a mentioned file, a !command's outcome, the custom commands.
func (m *Model) handleInput(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case editor.FilesMsg:
		m.noticeIf(m.input.FilesLoaded(msg))
	case mcpPromptMsg:
		return m.mcpPromptDone(msg)
	case editor.ImageMsg:
		m.noticeIf(m.input.ImageLoaded(msg))
	case editor.MentionMsg:
		line, send := m.input.MentionRead(msg)
		m.noticeIf(line)
		if send {
			return m.send()
		}
	case shellcmd.DoneMsg:
		m.shellDone(msg)
	case customcmd.Msg:
		m.setCustom(msg)
	case editor.HistoryMsg:
		m.historyFailed(m.input.HistoryLoaded(msg))
	case editor.HistorySavedMsg:
		m.historyFailed(msg.Err)
	case firstFrameMsg:
		return m.loadResumedRest()
	case resumedRestMsg:
		m.resumedRestLoaded(msg)
	}
	return nil
}

// noticeIf adds a notice unless text is empty.
func (m *Model) noticeIf(text string) {
	if text != "" {
		m.notice(text)
	}
}

// setDark switches the styles for the terminal's background; every cached
// rendering is dropped (the next View redraws what is visible).
func (m *Model) setDark(dark bool) {
	if m.opts.Dark != nil || dark == m.st.Dark {
		return
	}
	m.st = theme.New(dark, m.opts.NoColor)
	m.ruleW = 0
	m.input.Restyle(m.st)
	m.tr.Restyle(m.st)
	m.layout()
}

// setSession swaps in another session (resume, model switch).
func (m *Model) setSession(msg SessionMsg) tea.Cmd {
	m.session = msg.Session
	m.gen++
	m.status.SetProvider(msg.ProviderLabel)
	m.status.SetModel(msg.Model)
	m.running, m.queue = false, nil
	m.tr.ResetLive()
	m.tr.Clear()
	m.plan.Reset()
	if msg.Session != nil {
		m.showSession(msg.Session)
		m.notice("resumed session " + msg.Session.ID())
	}
	return m.drain()
}

// showSession fills the plan and the transcript from a session's state.
func (m *Model) showSession(s *agent.Session) {
	if s == nil {
		return
	}
	if p := s.Plan(); p != nil {
		m.plan.SetPlan(*p)
	}
	m.status.StartUsage(datalog.Totals{})
	if len(s.History()) > 0 { // resumed: its context is full already
		m.status.EstimateContext(s.ContextEstimate())
	}
	if r := m.opts.Resumed; r != nil && r.Session.ID == s.ID() {
		m.status.StartUsage(r.Session.Totals)
		start := m.tr.Len()
		m.tr.LoadLog(r)
		if r.Tail {
			m.resumedTail = [2]int{start, m.tr.Len()}
		}
		return
	}
	m.tr.LoadHistory(s.History())
}

func (m *Model) notice(text string) { m.tr.Notice(text) }

func (m *Model) errorCard(text string) { m.tr.ErrorCard(text) }

// quit ends the program; the running task is cancelled.
func (m *Model) quit() tea.Cmd {
	if m.session != nil {
		m.session.Cancel()
	}
	return tea.Quit
}
