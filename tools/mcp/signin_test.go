package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/tools/mcp/mcptest"
)

// browser follows the authorization URL as a browser would, through the
// redirect to keel's loopback listener.
func browser(t *testing.T) func(string) {
	return func(u string) {
		go func() {
			resp, err := http.Get(u)
			if err != nil {
				t.Errorf("browser: %v", err)
				return
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("browser: %s ended with %s", u, resp.Status)
			}
		}()
	}
}

func TestOAuthLoginCallRefreshLogout(t *testing.T) {
	a := mcptest.NewOAuthServer()
	t.Cleanup(a.Close)
	file := filepath.Join(t.TempDir(), "keel", "mcp-oauth.json")
	cfg := ServerConfig{Name: "web", URL: a.URL + "/mcp"}
	opts := Options{TokenFile: file}

	// Without a sign-in a session fails at once, naming the command.
	m, n := newManager(t, opts, cfg)
	if got := n.wait(t); !strings.Contains(got, "the server asks for OAuth sign-in: run `keel mcp login web` first") {
		t.Fatalf("notice = %q, want the login command named", got)
	}
	m.Close()

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := Login(ctx, cfg, opts, browser(t)); err != nil {
		t.Fatalf("login: %v", err)
	}
	st, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode %v; want 0600", st.Mode().Perm())
	}
	first := storedToken(t, file, cfg.URL)

	// A session uses the stored token: the call succeeds.
	m, _ = newManager(t, opts, cfg)
	started(t, m)
	if res := call(t, ctx, m, "mcp__web__echo", `{"text":"hi"}`); res.IsError || !strings.Contains(res.Output, "hi") {
		t.Fatalf("echo = %+v", res)
	}
	m.Close()
	_, early := a.Counts()
	if early != 0 {
		t.Fatalf("%d refreshes before the token expired", early)
	}

	// An expired access token is refreshed and the new one stored.
	expire(t, file, cfg.URL)
	m, _ = newManager(t, opts, cfg)
	started(t, m)
	if res := call(t, ctx, m, "mcp__web__echo", `{"text":"again"}`); res.IsError || !strings.Contains(res.Output, "again") {
		t.Fatalf("echo after expiry = %+v", res)
	}
	m.Close()
	exchanges, refreshes := a.Counts()
	if refreshes != 1 || exchanges != 1 {
		t.Errorf("refreshes, exchanges = %d, %d; want 1, 1", refreshes, exchanges)
	}
	if second := storedToken(t, file, cfg.URL); second == first {
		t.Errorf("stored token %q unchanged after the refresh", second)
	}

	// Logout forgets it; a session asks for a login again.
	if had, err := Logout(file, cfg.URL); !had || err != nil {
		t.Fatalf("logout = %v, %v", had, err)
	}
	if e, _ := (tokenStore{path: file}).get(cfg.URL); e != nil {
		t.Errorf("sign-in still stored after logout")
	}
	if had, _ := Logout(file, cfg.URL); had {
		t.Errorf("second logout found a sign-in")
	}
}

func storedToken(t *testing.T, file, url string) string {
	t.Helper()
	e, err := tokenStore{path: file}.get(url)
	if err != nil || e == nil || e.Token == nil {
		t.Fatalf("no stored sign-in for %s: %v", url, err)
	}
	return e.Token.AccessToken
}

func expire(t *testing.T, file, url string) {
	t.Helper()
	s := tokenStore{path: file}
	e, err := s.get(url)
	if err != nil || e == nil {
		t.Fatalf("no stored sign-in: %v", err)
	}
	e.Token.Expiry = time.Now().Add(-time.Hour)
	if _, err := s.put(url, e); err != nil {
		t.Fatal(err)
	}
}

// A login to a server that does not ask for one says so.
func TestOAuthLoginNotAsked(t *testing.T) {
	ts := httptest.NewServer(mcptest.Handler())
	t.Cleanup(ts.Close)
	_, err := Login(context.Background(), ServerConfig{Name: "open", URL: ts.URL}, Options{TokenFile: filepath.Join(t.TempDir(), "t.json")}, browser(t))
	if err == nil || !strings.Contains(err.Error(), "open did not ask for sign-in") {
		t.Errorf("err = %v", err)
	}
}

// A login nobody completes ends with its context, saying so.
func TestOAuthLoginNotCompleted(t *testing.T) {
	a := mcptest.NewOAuthServer()
	t.Cleanup(a.Close)
	ctx, cancel := context.WithCancel(context.Background())
	opened := func(string) { cancel() } // the user closes the browser and presses ctrl-c
	_, err := Login(ctx, ServerConfig{Name: "web", URL: a.URL + "/mcp"}, Options{TokenFile: filepath.Join(t.TempDir(), "t.json")}, opened)
	if err == nil || err.Error() != "the sign-in was cancelled" {
		t.Errorf("err = %v", err)
	}
}

// With sign-in possible, a 401 that is not a Bearer challenge is still
// reported as a want of credentials, not as a sign-in to run.
func TestOAuthNotForOtherChallenges(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Basic realm="x"`)
		http.Error(w, "unauthorized", http.StatusUnauthorized)
	}))
	t.Cleanup(ts.Close)
	_, n := newManager(t, Options{TokenFile: filepath.Join(t.TempDir(), "t.json")}, ServerConfig{Name: "web", URL: ts.URL})
	if got := n.wait(t); !strings.Contains(got, "the server wants credentials (401 Unauthorized); set them with headers in [mcp.servers.web]") {
		t.Errorf("notice = %q", got)
	}
}
