// Package dialog is the questions the agent asks the user and their
// dialogs: a permission request (allow once, for the session, or deny
// with a reason; an edit's diff previewed), a guard's question (continue,
// stop, or continue with guidance) and a plan to approve before its first
// side effect (approve, ask for changes, cancel).
//
// The Bridge carries them from the agent's goroutine, which blocks until
// the user answers or its context ends, to the UI's, which never blocks:
// the root model's drain command receives each Request from Requests and
// pushes it to the Model, which shows the first, takes the keys while it
// is up, ignores keys typed for the input as it opens, drops questions
// whose asker stopped waiting (Prune), and answers through the Request.
package dialog

import (
	"context"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/ui/common"
)

// Bridge carries the agent's questions (permission requests, guard
// questions) to the UI and the answers back. The agent's goroutine blocks
// in Ask or AskGuard until the user answers or ctx ends; the UI goroutine
// never blocks: the event-drain command receives the question as a message.
//
// Make it with NewBridge before the session, pass it as agent.Options.Gate,
// Asker and PlanConfirmer, and give it to ui.Options.Bridge.
type Bridge struct {
	reqs chan *Request
}

var (
	_ agent.Gate          = (*Bridge)(nil)
	_ agent.Asker         = (*Bridge)(nil)
	_ agent.PlanConfirmer = (*Bridge)(nil)
)

// NewBridge makes a Bridge.
func NewBridge() *Bridge {
	return &Bridge{reqs: make(chan *Request)}
}

// Requests is where the questions arrive, one at a time, for the root
// model's drain command.
func (b *Bridge) Requests() <-chan *Request { return b.reqs }

// Request is one question waiting for the user. Exactly one of perm and
// guard and plan is set. reply is buffered, so answering never blocks the UI.
type Request struct {
	perm  *agent.PermissionRequest
	guard *agent.Intervention
	plan  *agent.Plan
	reply chan answer
	done  <-chan struct{} // the asker's ctx: closed when it stopped waiting
}

// CallID is the tool call a permission question asks about ("" for
// other questions).
func (r *Request) CallID() string {
	if r.perm == nil {
		return ""
	}
	return r.perm.CallID
}

// answer is the user's reply to a request.
type answer struct {
	perm  agent.PermissionReply
	guard agent.GuardAnswer
	plan  agent.PlanVerdict
}

// Ask implements agent.Gate: it shows the permission dialog and waits.
func (b *Bridge) Ask(ctx context.Context, req agent.PermissionRequest) (agent.PermissionReply, error) {
	req = common.CleanPermission(req) // a copy, for display
	a, err := b.ask(ctx, &Request{perm: &req})
	return a.perm, err
}

// AskGuard implements agent.Asker: it shows the guard's question and waits.
func (b *Bridge) AskGuard(ctx context.Context, in agent.Intervention) (agent.GuardAnswer, error) {
	in = common.CleanIntervention(in)
	a, err := b.ask(ctx, &Request{guard: &in})
	return a.guard, err
}

// ConfirmPlan implements agent.PlanConfirmer: it shows the plan for
// approval before its first side effect and waits.
func (b *Bridge) ConfirmPlan(ctx context.Context, p agent.Plan) (agent.PlanVerdict, error) {
	p = common.CleanPlan(p)
	a, err := b.ask(ctx, &Request{plan: &p})
	return a.plan, err
}

func (b *Bridge) ask(ctx context.Context, r *Request) (answer, error) {
	r.reply = make(chan answer, 1)
	r.done = ctx.Done()
	select {
	case b.reqs <- r:
	case <-ctx.Done():
		return answer{}, ctx.Err()
	}
	select {
	case a := <-r.reply:
		return a, nil
	case <-ctx.Done():
		return answer{}, ctx.Err()
	}
}

// answer sends the user's reply; it never blocks (the channel has room for
// the one reply, and a request is answered once).
func (r *Request) answer(a answer) {
	select {
	case r.reply <- a:
	default:
	}
}

// withdrawn reports whether the asker stopped waiting (its task ended).
func (r *Request) withdrawn() bool {
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}

func permReply(allow, session bool, reason string) agent.PermissionReply {
	return agent.PermissionReply{Allow: allow, ForSession: session, Reason: reason}
}

func guardReply(cont bool, guidance string) agent.GuardAnswer {
	return agent.GuardAnswer{Continue: cont, Guidance: guidance}
}
