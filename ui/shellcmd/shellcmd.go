// Package shellcmd runs the user's !commands as the user's own: no
// permission question (the user typed it, the model did not propose it),
// in the workspace, through Shell.Run (tools.RunUserCommand: no keel
// secrets in its environment, its process group killed on cancel), in a
// command (Run) whose DoneMsg the root model routes back. Runs owns the
// commands in flight (to cancel them with esc) and the outputs waiting to
// go with the next prompt (Take).
package shellcmd

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/keel-dev/keel/tools"
	"github.com/keel-dev/keel/ui/attach"
)

// Shell is what `!command` needs of the session.
type Shell struct {
	// Run runs the user's command in the workspace (tools.RunUserCommand).
	Run       func(ctx context.Context, command string) tools.Result
	OutputCap int // bytes of output offered to the model (tool_output_cap; 0: uncapped)
}

// DoneMsg is the outcome of one !command.
type DoneMsg struct {
	ID       int
	Result   tools.Result
	Duration time.Duration
}

// Run runs command (the id Runs.Start gave it) in a command. Everything
// it uses is captured; it never touches a model.
func Run(ctx context.Context, sh Shell, id int, command string) tea.Cmd {
	return func() tea.Msg {
		start := time.Now()
		res := sh.Run(ctx, command)
		return DoneMsg{ID: id, Result: res, Duration: time.Since(start)}
	}
}

// run is a !command in flight.
type run struct {
	command string
	cancel  context.CancelFunc
}

// Runs owns the user's !commands: those running (to cancel them) and the
// outputs waiting to go with the next prompt.
type Runs struct {
	next    int
	running map[int]run
	pending []attach.Output
}

// Start registers a command about to run; cancel stops it. It returns
// the command's id, for Run.
func (s *Runs) Start(command string, cancel context.CancelFunc) int {
	if s.running == nil {
		s.running = map[int]run{}
	}
	s.next++
	s.running[s.next] = run{command: command, cancel: cancel}
	return s.next
}

// Finish ends a command; its output, capped at limit bytes, waits for the
// next prompt. It reports whether the command was one of these runs.
func (s *Runs) Finish(msg DoneMsg, limit int) bool {
	r, ok := s.running[msg.ID]
	if !ok {
		return false
	}
	delete(s.running, msg.ID)
	r.cancel()
	s.pending = append(s.pending, attach.Output{Command: r.command, Exit: msg.Result.ExitCode, Output: tools.CapOutput(msg.Result.Output, limit)})
	return true
}

// Active reports whether a command runs.
func (s *Runs) Active() bool { return len(s.running) > 0 }

// CancelAll cancels the running commands; it reports how many.
func (s *Runs) CancelAll() int {
	for _, r := range s.running {
		r.cancel()
	}
	return len(s.running)
}

// Take returns the outputs waiting for the next prompt and forgets them.
func (s *Runs) Take() []attach.Output {
	p := s.pending
	s.pending = nil
	return p
}
