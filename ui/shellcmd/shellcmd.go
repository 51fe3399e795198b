// Package shellcmd runs the user's !commands: each is judged by the
// session's permission policy exactly as the model's run_command would
// be, asks through the same dialog (the Bridge) when the policy says ask,
// and runs with the session's run_command tool, in a command (Run) whose
// DoneMsg the root model routes back. Runs owns the commands in flight
// (to cancel them with esc) and the outputs waiting to go with the next
// prompt (Take).
package shellcmd

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/tools"
	"github.com/keel-dev/keel/ui/attach"
)

// Shell is what `!command` needs of the session: its run_command tool
// and its permission policy, so the user's command is judged exactly as
// the model's would be, and one the policy asks about shows the same
// dialog (through the Bridge).
type Shell struct {
	Tool        tools.Tool        // the session's run_command
	Permissions agent.Permissions // the session's policy
	OutputCap   int               // bytes of output offered to the model (tool_output_cap; 0: uncapped)
}

// DoneMsg is the outcome of one !command.
type DoneMsg struct {
	ID       int
	Result   tools.Result
	Denied   bool
	Reason   string // why it was denied
	Duration time.Duration
	Err      error // the harness broke
}

// Run runs command (the id Runs.Start gave it) in a command: the policy
// decides, the user is asked through gate when it says ask, then the tool
// runs. Everything it uses is captured; it never touches a model.
func Run(ctx context.Context, sh Shell, gate agent.Gate, id int, command string) tea.Cmd {
	return func() tea.Msg {
		args, _ := json.Marshal(map[string]string{"command": command})
		d := sh.Permissions.Decide(tools.NameRunCommand, args)
		if d.Verdict == tools.Deny {
			return DoneMsg{ID: id, Denied: true, Reason: d.Reason}
		}
		if d.Verdict == tools.Ask {
			if reason, ok := askShell(ctx, sh, gate, d, id, command, args); !ok {
				return DoneMsg{ID: id, Denied: true, Reason: reason}
			}
		}
		if d.Target != "" {
			ctx = tools.WithTarget(ctx, d.Target)
		}
		if !d.ReadOnly || d.Verdict == tools.Ask { // asked and approved, or allowed beyond the read-only analysis
			ctx = tools.WithWrites(ctx)
		}
		start := time.Now()
		res, err := sh.Tool.Run(ctx, args)
		return DoneMsg{ID: id, Result: res, Duration: time.Since(start), Err: err}
	}
}

// askShell asks the user through the gate; it reports whether to run,
// and a denial's reason.
func askShell(ctx context.Context, sh Shell, gate agent.Gate, d tools.Decision, id int, command string, args []byte) (string, bool) {
	if gate == nil {
		return "nobody to ask: " + d.Reason, false
	}
	reply, err := gate.Ask(ctx, agent.PermissionRequest{
		CallID: fmt.Sprintf("user-%d", id), Tool: tools.NameRunCommand, Args: string(args), Summary: command,
		Reason: d.Reason, Grant: d.Grant.Description, Destructive: d.Destructive,
	})
	switch {
	case err != nil:
		return "not answered: " + err.Error(), false
	case !reply.Allow:
		return reply.Reason, false
	case reply.ForSession:
		sh.Permissions.Grant(d.Grant)
	}
	return "", true
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
// next prompt unless it was denied or broke. It reports whether the
// command was one of these runs.
func (s *Runs) Finish(msg DoneMsg, limit int) bool {
	r, ok := s.running[msg.ID]
	if !ok {
		return false
	}
	delete(s.running, msg.ID)
	r.cancel()
	if !msg.Denied && msg.Err == nil {
		s.pending = append(s.pending, attach.Output{Command: r.command, Exit: msg.Result.ExitCode, Output: tools.CapOutput(msg.Result.Output, limit)})
	}
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
