//lint:file-ignore SA1019 mirrors wireRequest

package llm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// emptyMessagesLimit lets servers send long runs of SSE comments
// (keep-alives while a model thinks) without go-openai giving up; the idle
// timeout, not a line count, decides when a server is dead.
const emptyMessagesLimit = 1 << 20

// Config describes one OpenAI-compatible endpoint.
type Config struct {
	BaseURL         string        // e.g. https://api.openai.com/v1
	APIKey          string        // sent as a bearer token when not empty
	Model           string        // used when Request.Model is empty
	MaxOutputTokens int           // used when Request.MaxOutputTokens is 0
	IdleTimeout     time.Duration // no bytes for this long aborts the stream; 0: no limit (keel passes stream_idle_timeout)
	HTTPClient      *http.Client  // nil means a client with http.DefaultTransport
	Name            string        // provider name for messages, e.g. "openai"
	APIKeyEnv       string        // env var named in the 401/403 message, e.g. "OPENAI_API_KEY"
}

// Client streams chat completions from one endpoint. It is safe for
// concurrent use.
type Client struct {
	cfg   Config
	cache encodeCache // encodings of the last history sent
	// endless is set once a stream's body did not end soon after [DONE]:
	// such a server costs the wait every round, so later bodies are
	// closed at once (watchBody.Close).
	endless atomic.Bool
}

// writeBufferSize is the HTTP transport's write buffer: a long history's
// body goes out in a few large writes instead of one system call per
// 4 KiB (net/http's default).
const writeBufferSize = 64 << 10

// sharedTransport is keel's transport, shared so providers on one host
// reuse connections: net/http's default with a larger write buffer, and
// plain TCP connections that write a request body in one piece
// (bodyConn).
var sharedTransport = sync.OnceValue(func() http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.WriteBufferSize = writeBufferSize
	dial := t.DialContext
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if tc, ok := c.(*net.TCPConn); ok && err == nil {
			return &bodyConn{TCPConn: tc}, nil
		}
		return c, err
	}
	return t
})

// New returns a client for cfg, filling in defaults.
func New(cfg Config) *Client {
	if cfg.Name == "" {
		cfg.Name = "the provider"
	}
	return &Client{cfg: cfg}
}

// Name returns the provider name used in messages.
func (c *Client) Name() string { return c.cfg.Name }

// Model returns the configured model.
func (c *Client) Model() string { return c.cfg.Model }

// openai returns a go-openai client whose transport reports to w and sends
// body. It is built per call (a few small structs) so nothing is shared.
func (c *Client) openai(w *watch, body wireBody) *openai.Client {
	hc := http.Client{}
	if c.cfg.HTTPClient != nil {
		hc = *c.cfg.HTTPClient
	}
	base := hc.Transport
	if base == nil {
		base = sharedTransport()
	}
	hc.Transport = &watchTransport{base: base, w: w, body: body}
	oc := openai.DefaultConfig(c.cfg.APIKey)
	oc.BaseURL = c.cfg.BaseURL
	oc.HTTPClient = &hc
	oc.EmptyMessagesLimit = emptyMessagesLimit
	return openai.NewClientWithConfig(oc)
}

// Stream sends req and streams the answer, calling onDelta (which may be
// nil) for every increment on the calling goroutine. It returns the
// accumulated Response, or an *Error (see Classify) saying what failed.
func (c *Client) Stream(ctx context.Context, req Request, onDelta func(Delta)) (Response, error) {
	start := time.Now()
	callCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := newWatch(c.cfg.IdleTimeout, cancel)
	w.endless = &c.endless
	defer w.stop()

	oreq, body, err := c.build(req)
	if err != nil {
		return Response{}, &Error{Kind: KindBadRequest, Provider: c.cfg.Name, Err: err, Message: err.Error()}
	}
	if req.BeforeSend != nil {
		req.BeforeSend()
	}
	stream, err := c.openai(w, body).CreateChatCompletionStream(callCtx, oreq)
	if err != nil {
		return Response{}, c.fail(ctx, w, fmt.Errorf("start stream: %w", err))
	}
	defer stream.Close()

	var first time.Duration
	acc := newAccumulator(func(d Delta) {
		if first == 0 {
			first = time.Since(start)
		}
		if onDelta != nil {
			onDelta(d)
		}
	})
	var captured *bytes.Buffer
	if req.Capture {
		captured = &bytes.Buffer{}
	}
	err = readStream(stream, acc, captured)
	resp := acc.response()
	if req.Capture {
		resp.RequestBody, resp.ResponseBody = body.Bytes(), captured.Bytes()
	}
	resp.FirstToken, resp.Duration = first, time.Since(start)
	if err = c.endOfStream(ctx, w, acc, err); err != nil {
		return resp, err
	}
	return resp, nil
}

// build applies the client defaults and encodes the body.
func (c *Client) build(req Request) (openai.ChatCompletionRequest, wireBody, error) {
	if req.Model == "" {
		req.Model = c.cfg.Model
	}
	if req.MaxOutputTokens == 0 {
		req.MaxOutputTokens = c.cfg.MaxOutputTokens
	}
	oreq := openaiRequest(req.Model, req.MaxOutputTokens)
	body, err := c.cache.body(req, oreq.MaxTokens, oreq.MaxCompletionTokens)
	if err != nil {
		return oreq, wireBody{}, fmt.Errorf("build request: %w", err)
	}
	return oreq, body, nil
}

// readStream feeds every data payload to acc until the stream ends; it
// returns io.EOF on a clean end ([DONE] or the body's end).
// With capture set, every payload is also kept there, one per line.
func readStream(stream *openai.ChatCompletionStream, acc *accumulator, capture *bytes.Buffer) error {
	for {
		raw, err := stream.RecvRaw()
		if err != nil {
			return err
		}
		if capture != nil {
			capture.Write(raw)
			capture.WriteByte('\n')
		}
		if err := acc.feed(raw); err != nil {
			return err
		}
	}
}

// endOfStream decides whether the way a stream ended is an answer.
func (c *Client) endOfStream(ctx context.Context, w *watch, acc *accumulator, err error) error {
	if ctx.Err() != nil || w.idled.Load() {
		return c.fail(ctx, w, fmt.Errorf("read stream: %w", err))
	}
	if acc.finish != "" && (err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF)) {
		return nil // the answer is complete; a missing [DONE] or usage is tolerated
	}
	if err == io.EOF {
		if w.done.seen {
			return nil
		}
		err = errors.New("stream ended without finish_reason or [DONE]")
		return &Error{Kind: KindTruncated, Provider: c.cfg.Name, Err: err}
	}
	return c.fail(ctx, w, fmt.Errorf("read stream: %w", err))
}

// fail classifies err with what this call observed.
func (c *Client) fail(ctx context.Context, w *watch, err error) *Error {
	return classify(err, callFacts{
		provider:    c.cfg.Name,
		apiKeyEnv:   c.cfg.APIKeyEnv,
		cancelled:   ctx.Err() != nil,
		idle:        w.idled.Load(),
		idleTimeout: w.idle,
		header:      w.header,
		now:         time.Now(),
	})
}
