package acp

import (
	"context"
	"sync"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/keel-dev/keel/agent"
)

// session is one ACP session: a keel session, the goroutine that turns
// its events into session/update notifications, and the editor's side of
// its questions.
type session struct {
	id      acpsdk.SessionId
	conn    *acpsdk.AgentSideConnection
	agent   *agent.Session
	root    string
	closeFn func()

	stopped  chan agent.TaskStopped // each task's last event, for prompt
	quit     chan struct{}
	pumpDone chan struct{}
	once     sync.Once
	promptMu sync.Mutex // one prompt at a time
	askMu    sync.Mutex
	asks     int // numbers the questions that are not a tool call's
}

func (ss *session) start() {
	ss.stopped = make(chan agent.TaskStopped, 1)
	ss.quit = make(chan struct{})
	ss.pumpDone = make(chan struct{})
	go ss.pump()
}

// pump forwards the session's events, in order, for the session's life:
// the notifications of a prompt go out before its answer.
func (ss *session) pump() {
	defer close(ss.pumpDone)
	for {
		select {
		case ev := <-ss.agent.Events():
			for _, u := range ss.updates(ev) {
				// A connection that broke ends the session anyway; the
				// task's stop still reaches prompt below.
				_ = ss.conn.SessionUpdate(context.Background(), acpsdk.SessionNotification{SessionId: ss.id, Update: u})
			}
			if st, ok := ev.(agent.TaskStopped); ok {
				ss.stopped <- st
			}
		case <-ss.quit:
			return
		}
	}
}

// prompt runs text as a task and answers with how it stopped. The
// request's context is the task's: the editor's session/cancel (or its
// leaving) cancels it, and the answer still waits for the task's end.
func (ss *session) prompt(ctx context.Context, text string) (acpsdk.PromptResponse, error) {
	ss.promptMu.Lock()
	defer ss.promptMu.Unlock()
	if err := ss.agent.Submit(ctx, text); err != nil {
		return acpsdk.PromptResponse{}, err
	}
	select {
	case st := <-ss.stopped:
		return stopResponse(st)
	case <-ss.quit:
		return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonCancelled}, nil
	}
}

// stopResponse maps a task's stop onto the protocol's stop reasons; a
// provider's failure is the request's error.
func stopResponse(st agent.TaskStopped) (acpsdk.PromptResponse, error) {
	r := acpsdk.StopReasonEndTurn
	switch st.Reason {
	case agent.StopCancelled:
		r = acpsdk.StopReasonCancelled
	case agent.StopMaxTurns, agent.StopMaxToolCalls:
		r = acpsdk.StopReasonMaxTurnRequests
	case agent.StopTokenBudget, agent.StopContextOverflow:
		r = acpsdk.StopReasonMaxTokens
	case agent.StopProviderError:
		return acpsdk.PromptResponse{}, acpsdk.NewInternalError(map[string]any{"error": st.Message})
	}
	return acpsdk.PromptResponse{StopReason: r}, nil
}

// close ends the keel session (cancelling its task) and then the pump,
// which drains events until the task is gone.
func (ss *session) close() {
	ss.once.Do(func() {
		if ss.closeFn != nil {
			ss.closeFn()
		}
		close(ss.quit)
		<-ss.pumpDone
	})
}
