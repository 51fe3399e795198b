package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/tools"
	"github.com/keel-dev/keel/ui/attach"
	"github.com/keel-dev/keel/ui/transcript"
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

// shellDoneMsg is the outcome of one !command.
type shellDoneMsg struct {
	id       int
	res      tools.Result
	denied   bool
	reason   string // why it was denied
	duration time.Duration
	err      error // the harness broke
}

// runShell runs command in a command: the policy decides, the user is
// asked when it says ask, then the tool runs. Everything it uses is
// captured; it never touches the model.
func runShell(ctx context.Context, sh Shell, gate agent.Gate, id int, command string) tea.Cmd {
	return func() tea.Msg {
		args, _ := json.Marshal(map[string]string{"command": command})
		d := sh.Permissions.Decide(tools.NameRunCommand, args)
		if d.Verdict == tools.Deny {
			return shellDoneMsg{id: id, denied: true, reason: d.Reason}
		}
		if d.Verdict == tools.Ask {
			if reason, ok := askShell(ctx, sh, gate, d, id, command, args); !ok {
				return shellDoneMsg{id: id, denied: true, reason: reason}
			}
		}
		if d.Target != "" {
			ctx = tools.WithTarget(ctx, d.Target)
		}
		start := time.Now()
		res, err := sh.Tool.Run(ctx, args)
		return shellDoneMsg{id: id, res: res, duration: time.Since(start), err: err}
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

// shellRun is a !command in flight.
type shellRun struct {
	entry   *transcript.Entry
	command string
	cancel  context.CancelFunc
}

// shellRuns owns the user's !commands: those running (to cancel them)
// and the outputs waiting to go with the next prompt.
type shellRuns struct {
	next    int
	running map[int]shellRun
	pending []attach.Output
}

// start registers a command shown by e; it returns its id.
func (s *shellRuns) start(e *transcript.Entry, command string, cancel context.CancelFunc) int {
	if s.running == nil {
		s.running = map[int]shellRun{}
	}
	s.next++
	s.running[s.next] = shellRun{entry: e, command: command, cancel: cancel}
	return s.next
}

// finish ends a command; its output, capped at limit, waits for the next
// prompt unless it was denied or broke.
func (s *shellRuns) finish(msg shellDoneMsg, limit int) (shellRun, bool) {
	run, ok := s.running[msg.id]
	if !ok {
		return run, false
	}
	delete(s.running, msg.id)
	run.cancel()
	if !msg.denied && msg.err == nil {
		s.pending = append(s.pending, attach.Output{Command: run.command, Exit: msg.res.ExitCode, Output: tools.CapOutput(msg.res.Output, limit)})
	}
	return run, true
}

// active reports whether a command runs.
func (s *shellRuns) active() bool { return len(s.running) > 0 }

// cancelAll cancels the running commands; it reports how many.
func (s *shellRuns) cancelAll() int {
	for _, r := range s.running {
		r.cancel()
	}
	return len(s.running)
}

// take returns the outputs waiting for the next prompt and forgets them.
func (s *shellRuns) take() []attach.Output {
	p := s.pending
	s.pending = nil
	return p
}
