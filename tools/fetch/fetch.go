package fetch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/keel-dev/keel/tools"
)

// Name is the tool's name, which permission rules use ("fetch",
// "fetch:docs.python.org", "fetch:*.python.org").
const Name = "fetch"

const description = `Fetch a web page by URL and return its main content as markdown (navigation, ads and scripts left out; set full to convert the whole page). Text, JSON and other text types come back as they are. Use it to read documentation, an issue or an article the user points to. The user is asked the first time per domain. Private, loopback and link-local addresses are refused unless the user's configuration allows them. A redirect to another host is not followed: the result names the new URL, which you fetch if you still need it.`

// params are the tool's arguments; their tags make its schema.
type params struct {
	URL  string `json:"url" description:"The page's address, http or https, e.g. https://go.dev/doc/effective_go."`
	Full bool   `json:"full,omitempty" description:"Convert the whole page instead of only its main content."`
}

// Defaults for Options' zero values.
const (
	DefaultMaxBytes     = 5 << 20
	DefaultTimeout      = 30 * time.Second
	DefaultMaxRedirects = 5
)

// Options configure the tool; zero values take the defaults above.
type Options struct {
	MaxBytes     int64         // body bytes read at most; the rest is cut
	Timeout      time.Duration // the whole fetch, the body's read included
	MaxRedirects int           // same-host redirects followed
	Networks     Networks      // special-use addresses allowed anyway
	UserAgent    string
}

// Tool is the fetch tool.
type Tool struct {
	tools.Tool
	opts   Options
	client *http.Client
}

var (
	_ tools.Tool   = (*Tool)(nil)
	_ tools.Scoper = (*Tool)(nil)
)

// MatchScope reports whether a rule's pattern ("docs.python.org",
// "*.python.org") covers a host.
func (t *Tool) MatchScope(pattern, host string) bool { return DomainMatch(pattern, host) }

// CheckScopePattern checks a rule's pattern.
func (t *Tool) CheckScopePattern(pattern string) error {
	_, err := NormalizeDomain(pattern)
	return err
}

// New returns the fetch tool.
func New(opts Options) *Tool {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxRedirects <= 0 {
		opts.MaxRedirects = DefaultMaxRedirects
	}
	if opts.UserAgent == "" {
		opts.UserAgent = "keel-fetch/1 (a coding assistant reading a page for its user)"
	}
	t := &Tool{opts: opts, client: newClient(opts.Networks, opts.MaxRedirects)}
	t.Tool = tools.NewTool(Name, description, tools.ReadOnly, nil, t.run)
	return t
}

// Scope is the host a call reaches, for the policy's per-domain question;
// an error refuses the call before anyone is asked (a bad URL, a private
// address written into it).
func (t *Tool) Scope(args json.RawMessage) (string, error) {
	var p params
	if err := json.Unmarshal(args, &p); err != nil {
		return "", fmt.Errorf("invalid arguments for fetch: %v", err)
	}
	target, err := CheckURL(p.URL, t.opts.Networks)
	if err != nil {
		return "", err
	}
	return target.Host, nil
}

// run fetches. Everything that goes wrong with the page (a refusal, a
// timeout, an HTTP error, a binary body) is a result the model reads.
func (t *Tool) run(ctx context.Context, p params) (tools.Result, error) {
	target, err := CheckURL(p.URL, t.opts.Networks)
	if err != nil {
		return tools.ErrResult("%v", err), nil
	}
	ctx, cancel := withTimeout(ctx, t.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target.URL.String(), nil)
	if err != nil {
		return tools.ErrResult("the request cannot be made: %v", err), nil
	}
	req.Header.Set("User-Agent", t.opts.UserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.9,*/*;q=0.5")
	resp, err := t.client.Do(req)
	if err != nil {
		return tools.ErrResult("%s", t.failure(ctx, target, err)), nil
	}
	defer resp.Body.Close()
	if loc := resp.Header.Get("Location"); resp.StatusCode >= 300 && resp.StatusCode < 400 && loc != "" {
		next, _ := resp.Request.URL.Parse(loc)
		return tools.Result{Output: fmt.Sprintf("%s redirects to another host: %s\nCall fetch with that URL to read it (the user may be asked about that domain).", resp.Request.URL, next)}, nil
	}
	return t.read(ctx, resp, p.Full)
}

// failure says in one sentence why a request failed.
func (t *Tool) failure(ctx context.Context, target Target, err error) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Sprintf("fetching %s timed out after %s (fetch.timeout)", target.URL, t.opts.Timeout)
	}
	return fmt.Sprintf("fetching %s failed: %v", target.URL, dialErr(err))
}

// read turns the response's body into the result: markdown for HTML, the
// text for other text types, a refusal for anything else.
func (t *Tool) read(ctx context.Context, resp *http.Response, full bool) (tools.Result, error) {
	body, cut, err := readCapped(resp.Body, t.opts.MaxBytes)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return tools.ErrResult("reading %s timed out after %s (fetch.timeout)", resp.Request.URL, t.opts.Timeout), nil
		}
		return tools.ErrResult("reading %s failed: %v", resp.Request.URL, err), nil
	}
	ct := resp.Header.Get("Content-Type")
	mt, isHTML, isText := kind(ct, body)
	if !isText {
		return tools.ErrResult("%s is %s, not text: fetch returns web pages and text", resp.Request.URL, mt), nil
	}
	var b strings.Builder
	text := utf8Body(body, ct)
	if isHTML {
		pg, err := toMarkdown(text, resp.Request.URL, full)
		if err != nil {
			return tools.ErrResult("%v", err), nil
		}
		if pg.title != "" {
			fmt.Fprintf(&b, "# %s\n\n", pg.title)
		}
		text = []byte(pg.markdown)
	}
	fmt.Fprintf(&b, "URL: %s\n\n%s\n", resp.Request.URL, strings.TrimSpace(string(text)))
	if cut {
		fmt.Fprintf(&b, "\n[the page is longer than %d bytes (fetch.max_bytes): the rest was not read]\n", t.opts.MaxBytes)
	}
	res := tools.Result{Output: b.String()}
	if resp.StatusCode >= 400 {
		res.IsError = true
		res.Output = fmt.Sprintf("HTTP %s from %s\n\n%s", resp.Status, resp.Request.URL, res.Output)
	}
	return res, nil
}
