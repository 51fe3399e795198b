package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/keel-dev/keel/tools"
)

// progressRoutes sends a server's progress notifications to the calls
// that asked for them, by progress token. A token is unique per manager
// process: "keel-N".
type progressRoutes struct {
	mu     sync.Mutex
	routes map[string]func(tools.Progress)
}

var tokenSeq atomic.Int64

// progressGrace is how long a call's progress route outlives the call.
const progressGrace = 5 * time.Second

// add routes a new token's notifications to report until the returned
// function removes it.
func (r *progressRoutes) add(report func(tools.Progress)) (token string, remove func()) {
	token = "keel-" + strconv.FormatInt(tokenSeq.Add(1), 10)
	r.mu.Lock()
	if r.routes == nil {
		r.routes = map[string]func(tools.Progress){}
	}
	r.routes[token] = report
	r.mu.Unlock()
	return token, func() {
		r.mu.Lock()
		delete(r.routes, token)
		r.mu.Unlock()
	}
}

// deliver hands a notification to its call; one for no call is dropped.
func (r *progressRoutes) deliver(p *sdk.ProgressNotificationParams) {
	token := fmt.Sprint(p.ProgressToken)
	r.mu.Lock()
	report := r.routes[token]
	r.mu.Unlock()
	if report != nil {
		report(tools.Progress{Progress: p.Progress, Total: p.Total, Message: p.Message})
	}
}

// clientOptions are the SDK client's handlers for what a server sends
// unasked: progress goes to the call, log messages to the server's stderr
// tail (shown by /mcp), a changed tool list is listed again.
func (s *server) clientOptions() *sdk.ClientOptions {
	return &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			s.progress.deliver(req.Params)
		},
		LoggingMessageHandler: func(_ context.Context, req *sdk.LoggingMessageRequest) {
			s.logMessage(req.Params)
		},
		ToolListChangedHandler: func(_ context.Context, req *sdk.ToolListChangedRequest) {
			go s.relist(req.Session)
		},
	}
}

// logMessage keeps a server's log notification with its stderr.
func (s *server) logMessage(p *sdk.LoggingMessageParams) {
	data, ok := p.Data.(string)
	if !ok {
		b, _ := json.Marshal(p.Data)
		data = string(b)
	}
	logger := ""
	if p.Logger != "" {
		logger = " " + p.Logger
	}
	fmt.Fprintf(s.stderr, "[%s%s] %s\n", p.Level, logger, data)
}

// relist lists the tools of a server that said they changed, and offers
// the new list from the next request; a failure keeps the old list.
func (s *server) relist(sess *sdk.ClientSession) {
	ctx, cancel := within(context.Background(), s.cfg.StartTimeout)
	defer cancel()
	list, err := listTools(ctx, sess)
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.link != nil && s.link.sess == sess {
		s.tools, s.omitted = s.adapt(list)
	}
}
