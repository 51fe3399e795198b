package mcp

import (
	"context"
	"errors"
	"fmt"
)

// Login signs in to cfg's HTTP server afresh (the stored sign-in is
// ignored): it connects, and when the server asks for OAuth, browse gets
// the authorization URL and keel waits, within ctx, for the redirect to
// its loopback listener; the tokens go to opts.TokenFile. It returns how
// many tools the signed-in server lists.
func Login(ctx context.Context, cfg ServerConfig, opts Options, browse func(authURL string)) (int, error) {
	if cfg.URL == "" {
		return 0, fmt.Errorf("%s is not an HTTP server (no url): only those sign in", cfg.Name)
	}
	if opts.TokenFile == "" {
		return 0, errors.New("no file to keep sign-ins in: set HOME or XDG_DATA_HOME")
	}
	opts = opts.withDefaults()
	s := newServer(cfg, &opts)
	h := s.oauth()
	if h == nil {
		return 0, fmt.Errorf("[mcp.servers.%s] sets an Authorization header, which keel sends instead of signing in", cfg.Name)
	}
	h.browse, h.loaded = browse, true
	l, got, err := s.dial(ctx)
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return 0, errors.New("the sign-in was not completed in time")
	case ctx.Err() != nil:
		return 0, errors.New("the sign-in was cancelled")
	case err != nil:
		return 0, err
	}
	l.end()
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.authorized {
		return len(got.tools), fmt.Errorf("%s did not ask for sign-in: it answers without one", cfg.Name)
	}
	return len(got.tools), nil
}

// Logout forgets the sign-in to the server at url; it reports whether
// there was one.
func Logout(tokenFile, url string) (bool, error) {
	if tokenFile == "" {
		return false, nil
	}
	return tokenStore{path: tokenFile}.put(url, nil)
}
