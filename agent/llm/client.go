package llm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Config describes one OpenAI-compatible endpoint.
type Config struct {
	BaseURL         string        // e.g. https://api.openai.com/v1
	APIKey          string        // sent as a bearer token when not empty
	Model           string        // used when Request.Model is empty
	MaxOutputTokens int           // used when Request.MaxOutputTokens is 0
	IdleTimeout     time.Duration // no bytes for this long aborts the stream; 0: no limit (keel passes stream_idle_timeout)
	SilenceNotice   time.Duration // no bytes for this long is reported (Request.OnSilence); 0: min(IdleTimeout/4, 10 s)
	DrainWait       time.Duration // how long the end of a body after [DONE] is waited for; 0: 50 ms (quirk_endless_body.go)
	HTTPClient      *http.Client  // nil means a client with keel's shared transport
	Name            string        // provider name for messages, e.g. "openai"
	APIKeyEnv       string        // env var named in the 401/403 message, e.g. "OPENAI_API_KEY"
}

// Client streams chat completions from one endpoint. It is safe for
// concurrent use.
type Client struct {
	cfg   Config
	cache encodeCache // encodings of the last history sent
	// endless is set once a stream's body did not end soon after [DONE]
	// (quirk_endless_body.go).
	endless atomic.Bool
}

// writeBufferSize is the HTTP transport's write buffer: a long history's
// body goes out in a few large writes instead of one system call per
// 4 KiB (net/http's default).
const writeBufferSize = 64 << 10

// sharedTransport is net/http's default transport with a larger write
// buffer, shared so providers on one host reuse connections.
var sharedTransport = sync.OnceValue(func() http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.WriteBufferSize = writeBufferSize
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

// Stream sends req and streams the answer, calling onDelta (which may be
// nil) for every increment on the calling goroutine. It returns the
// accumulated Response, or an *Error (see Classify) saying what failed.
func (c *Client) Stream(ctx context.Context, req Request, onDelta func(Delta)) (Response, error) {
	start := time.Now()
	callCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := newWatch(c.cfg.IdleTimeout, c.cfg.SilenceNotice, cancel, c.silenceTo(req.OnSilence))
	defer w.stop()

	body, err := c.build(req)
	if err != nil {
		return Response{}, &Error{Kind: KindBadRequest, Provider: c.cfg.Name, Err: err, Message: err.Error()}
	}
	if req.BeforeSend != nil {
		req.BeforeSend()
	}
	hresp, err := c.send(callCtx, w, body)
	if err != nil {
		return Response{}, c.fail(ctx, w, err)
	}
	events := newEventReader(hresp.Body)
	defer func() { c.closeBody(hresp.Body, events.done) }()

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
	err = readStream(events, acc, captured)
	resp := acc.response()
	if req.Capture {
		resp.RequestBody, resp.ResponseBody = body.Bytes(), captured.Bytes()
	}
	resp.FirstToken, resp.Duration = first, time.Since(start)
	if err = c.endOfStream(ctx, w, acc, events, err); err != nil {
		return resp, err
	}
	return resp, nil
}

// silenceTo names this client in the silences it reports to f.
func (c *Client) silenceTo(f func(Silence)) func(Silence) {
	if f == nil {
		return nil
	}
	return func(s Silence) {
		s.Provider = c.cfg.Name
		f(s)
	}
}

// build applies the client defaults and encodes the body.
func (c *Client) build(req Request) (wireBody, error) {
	if req.Model == "" {
		req.Model = c.cfg.Model
	}
	if req.MaxOutputTokens == 0 {
		req.MaxOutputTokens = c.cfg.MaxOutputTokens
	}
	maxTokens, maxCompletion := tokenLimits(req.Model, req.MaxOutputTokens)
	body, err := c.cache.body(req, maxTokens, maxCompletion)
	if err != nil {
		return wireBody{}, fmt.Errorf("build request: %w", err)
	}
	return body, nil
}

// send posts body to the chat-completions endpoint and returns the
// response of a stream that started; a status of 400 or more is an
// *apiError.
func (c *Client) send(ctx context.Context, w *watch, body wireBody) (*http.Response, error) {
	url := c.endpoint()
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, url, body.Reader())
	if err != nil {
		return nil, err
	}
	hreq.ContentLength = int64(body.Len())
	hreq.GetBody = func() (io.ReadCloser, error) { return body.Reader(), nil }
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "text/event-stream")
	if c.cfg.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	hc := http.Client{}
	if c.cfg.HTTPClient != nil {
		hc = *c.cfg.HTTPClient
	}
	base := hc.Transport
	if base == nil {
		base = sharedTransport()
	}
	hc.Transport = &watchTransport{base: base, w: w}
	resp, err := hc.Do(hreq)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= http.StatusBadRequest {
		defer resp.Body.Close()
		return nil, httpError(resp)
	}
	return resp, nil
}

// readStream feeds every data payload to acc until the stream ends; it
// returns io.EOF on a clean end ([DONE] or the body's end).
// With capture set, every payload is also kept there, one per line.
func readStream(events *eventReader, acc *accumulator, capture *bytes.Buffer) error {
	for {
		raw, err := events.next()
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
func (c *Client) endOfStream(ctx context.Context, w *watch, acc *accumulator, events *eventReader, err error) error {
	switch {
	case ctx.Err() != nil || w.idled.Load():
		return c.fail(ctx, w, fmt.Errorf("read stream: %w", err))
	case answerComplete(acc.finish, events.done, err):
		return nil
	case err != io.EOF:
		return c.fail(ctx, w, fmt.Errorf("read stream: %w", err))
	}
	if berr := events.bodyError(); berr != nil {
		return c.fail(ctx, w, berr)
	}
	if e := c.notAStream(events, w.header); e != nil {
		return e
	}
	err = errors.New("stream ended without finish_reason or [DONE]")
	return &Error{Kind: KindTruncated, Provider: c.cfg.Name, Err: err}
}

// endpoint is the chat-completions URL requested.
func (c *Client) endpoint() string {
	return strings.TrimRight(c.cfg.BaseURL, "/") + "/chat/completions"
}

// fail classifies err with what this call observed.
func (c *Client) fail(ctx context.Context, w *watch, err error) *Error {
	return classify(err, callFacts{
		provider:    c.cfg.Name,
		apiKeyEnv:   c.cfg.APIKeyEnv,
		cancelled:   ctx.Err() != nil,
		idle:        w.idled.Load(),
		idleTimeout: w.idle,
		keptAlive:   w.keptAlive.Load(),
		header:      w.header,
		now:         time.Now(),
		url:         c.endpoint(),
	})
}
