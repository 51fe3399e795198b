package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/keel-dev/keel/tools/mcp/mcptest"
)

// authServer is a loopback OAuth authorization server in front of the
// test MCP server: metadata discovery (RFC 9728 and RFC 8414), dynamic
// registration, /authorize redirecting with a code, /token checking PKCE
// and refreshing.
type authServer struct {
	*httptest.Server
	mu        sync.Mutex
	challenge map[string]string // code -> PKCE challenge
	access    map[string]bool   // valid access tokens
	refresh   map[string]bool
	n         int
	refreshes int
	exchanges int
}

func newAuthServer(t *testing.T) *authServer {
	a := &authServer{challenge: map[string]string{}, access: map[string]bool{}, refresh: map[string]bool{}}
	mux := http.NewServeMux()
	jsonH := func(path string, f http.HandlerFunc) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			f(w, r)
		})
	}
	mcpH := mcptest.Handler()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		a.mu.Lock()
		ok := a.access[tok]
		a.mu.Unlock()
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+a.URL+`/.well-known/oauth-protected-resource/mcp"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		mcpH.ServeHTTP(w, r)
	})
	jsonH("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"resource": a.URL + "/mcp", "authorization_servers": []string{a.URL}})
	})
	jsonH("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"issuer": a.URL, "authorization_endpoint": a.URL + "/authorize",
			"token_endpoint": a.URL + "/token", "registration_endpoint": a.URL + "/register",
			"response_types_supported": []string{"code"}, "code_challenge_methods_supported": []string{"S256"},
			"grant_types_supported": []string{"authorization_code", "refresh_token"}})
	})
	jsonH("/register", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(map[string]any{"client_id": "keel-client", "token_endpoint_auth_method": "none"})
	})
	mux.HandleFunc("/authorize", a.authorize)
	mux.HandleFunc("/token", a.token)
	a.Server = httptest.NewServer(mux)
	t.Cleanup(a.Close)
	return a
}

func (a *authServer) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	redirect, _ := url.Parse(q.Get("redirect_uri"))
	if q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || redirect == nil ||
		redirect.Hostname() != "127.0.0.1" || q.Get("resource") != a.URL+"/mcp" {
		http.Error(w, "bad authorization request", http.StatusBadRequest)
		return
	}
	a.mu.Lock()
	a.n++
	code := fmt.Sprintf("code-%d", a.n)
	a.challenge[code] = q.Get("code_challenge")
	a.mu.Unlock()
	redirect.RawQuery = url.Values{"code": {code}, "state": {q.Get("state")}}.Encode()
	http.Redirect(w, r, redirect.String(), http.StatusFound)
}

func (a *authServer) token(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	a.mu.Lock()
	defer a.mu.Unlock()
	switch r.Form.Get("grant_type") {
	case "authorization_code":
		sum := sha256.Sum256([]byte(r.Form.Get("code_verifier")))
		want, ok := a.challenge[r.Form.Get("code")]
		if !ok || base64.RawURLEncoding.EncodeToString(sum[:]) != want {
			http.Error(w, `{"error":"invalid_grant"}`, http.StatusBadRequest)
			return
		}
		delete(a.challenge, r.Form.Get("code"))
		a.exchanges++
	case "refresh_token":
		if !a.refresh[r.Form.Get("refresh_token")] {
			http.Error(w, `{"error":"invalid_grant"}`, http.StatusBadRequest)
			return
		}
		a.refreshes++
	default:
		http.Error(w, `{"error":"unsupported_grant_type"}`, http.StatusBadRequest)
		return
	}
	a.n++
	at, rt := fmt.Sprintf("access-%d", a.n), fmt.Sprintf("refresh-%d", a.n)
	a.access[at], a.refresh[rt] = true, true
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"access_token": at, "refresh_token": rt, "token_type": "Bearer", "expires_in": 3600})
}

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
	a := newAuthServer(t)
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
	if a.refreshes != 0 {
		t.Fatalf("%d refreshes before the token expired", a.refreshes)
	}

	// An expired access token is refreshed and the new one stored.
	expire(t, file, cfg.URL)
	m, _ = newManager(t, opts, cfg)
	started(t, m)
	if res := call(t, ctx, m, "mcp__web__echo", `{"text":"again"}`); res.IsError || !strings.Contains(res.Output, "again") {
		t.Fatalf("echo after expiry = %+v", res)
	}
	m.Close()
	a.mu.Lock()
	refreshes, exchanges := a.refreshes, a.exchanges
	a.mu.Unlock()
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
