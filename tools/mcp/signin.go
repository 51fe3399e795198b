package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// An HTTP server that answers 401 with a Bearer challenge gets the MCP
// authorization spec's sign-in through the Go SDK's authorization-code
// handler (PKCE, metadata discovery, dynamic client registration): keel
// mcp login runs it with the browser and a loopback redirect; a session
// uses the stored tokens, refreshed as they expire, and never waits for
// a browser.

// LoginNeededError is a start refused for want of a sign-in that this
// run may not do interactively.
type LoginNeededError struct{ Name string }

func (e *LoginNeededError) Error() string {
	return fmt.Sprintf("the server asks for OAuth sign-in: run `keel mcp login %s` first", e.Name)
}

// signIn is an HTTP server's auth.OAuthHandler.
type signIn struct {
	name, url string
	store     tokenStore
	client    *http.Client         // for the authorization server
	browse    func(authURL string) // nil: no interactive sign-in

	mu         sync.Mutex
	ts         oauth2.TokenSource
	loaded     bool // the stored sign-in was read (or is to be ignored)
	authorized bool // an interactive sign-in completed
}

var _ auth.OAuthHandler = (*signIn)(nil)

// TokenSource is the stored sign-in's, refreshing and storing new tokens.
func (h *signIn) TokenSource(context.Context) (oauth2.TokenSource, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.loaded {
		h.loaded = true
		e, err := h.store.get(h.url)
		if err != nil {
			return nil, err
		}
		if e != nil && e.Token != nil {
			h.ts = h.saving(e.config(), e.Token)
		}
	}
	return h.ts, nil
}

// saving is cfg's refreshing token source, storing what it gets; its
// context outlives the request that made it.
func (h *signIn) saving(cfg *oauth2.Config, tok *oauth2.Token) oauth2.TokenSource {
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, h.client)
	e := signInEntry{ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret, AuthURL: cfg.Endpoint.AuthURL,
		TokenURL: cfg.Endpoint.TokenURL, AuthStyle: cfg.Endpoint.AuthStyle, Scopes: cfg.Scopes}
	return &savingSource{src: cfg.TokenSource(ctx, tok), store: h.store, url: h.url, entry: e}
}

// Authorize runs the sign-in when it may, else says how to sign in.
func (h *signIn) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	if h.browse == nil {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized || !isBearer(resp.Header.Get("WWW-Authenticate")) {
			return nil // not a sign-in: the retry fails as it would have
		}
		return &LoginNeededError{Name: h.name}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		resp.Body.Close()
		return fmt.Errorf("listening for the sign-in's redirect: %w", err)
	}
	defer ln.Close()
	redirect := fmt.Sprintf("http://%s/callback", ln.Addr())
	ah, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			RedirectURIs: []string{redirect}, ClientName: "keel", TokenEndpointAuthMethod: "none",
			GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"}}},
		RedirectURL:              redirect,
		AuthorizationCodeFetcher: h.fetcher(ln),
		RequestRefreshToken:      true,
		Client:                   h.client,
		NewTokenSource:           h.newSource,
	})
	if err != nil {
		resp.Body.Close()
		return err
	}
	if err := ah.Authorize(ctx, req, resp); err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.authorized = true
	return nil
}

// newSource stores the fresh sign-in and makes it the handler's source.
func (h *signIn) newSource(_ context.Context, cfg *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
	ts := h.saving(cfg, tok)
	if _, err := ts.Token(); err != nil { // stores it
		return nil, err
	}
	h.mu.Lock()
	h.ts, h.loaded = ts, true
	h.mu.Unlock()
	return ts, nil
}

// fetcher opens the authorization URL and waits for the redirect to the
// loopback listener ln.
func (h *signIn) fetcher(ln net.Listener) auth.AuthorizationCodeFetcher {
	return func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		got := make(chan *auth.AuthorizationResult, 1)
		failed := make(chan error, 1)
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			q := r.URL.Query()
			if r.URL.Path != "/callback" {
				http.NotFound(w, r)
				return
			}
			if e := q.Get("error"); e != "" {
				fmt.Fprintf(w, "keel: sign-in failed (%s); you can close this page.\n", e)
				select {
				case failed <- fmt.Errorf("the authorization server refused the sign-in: %s", e):
				default:
				}
				return
			}
			fmt.Fprintln(w, "keel: signed in; you can close this page.")
			select {
			case got <- &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}:
			default:
			}
		})}
		go srv.Serve(ln)
		// Shutdown, not Close: Close cut the connection of the request that
		// had just signalled, and the browser showed an error page
		// instead of "signed in" (seen as EOF in TestOAuthLoginCallRefreshLogout).
		defer func() {
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			srv.Shutdown(sctx)
		}()
		h.browse(args.URL)
		select {
		case res := <-got:
			return res, nil
		case err := <-failed:
			return nil, err
		case <-ctx.Done():
			return nil, errors.New("the sign-in was not completed in time")
		}
	}
}

// oauth is the server's sign-in handler, or nil when it has none: no
// token file, or an Authorization header configured (which wins).
func (s *server) oauth() *signIn {
	if s.signin != nil {
		return s.signin
	}
	if s.opts.TokenFile == "" {
		return nil
	}
	for k := range s.cfg.Headers {
		if http.CanonicalHeaderKey(k) == "Authorization" {
			return nil
		}
	}
	s.signin = &signIn{name: s.cfg.Name, url: s.cfg.URL, store: tokenStore{path: s.opts.TokenFile}, client: s.opts.HTTPClient}
	return s.signin
}

func isBearer(challenge string) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(challenge)), "bearer")
}
