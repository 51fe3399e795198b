package mcptest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
)

// OAuthServer is a loopback OAuth authorization server in front of the
// test MCP server: metadata discovery (RFC 9728 and RFC 8414), dynamic
// registration, /authorize redirecting with a code, /token checking PKCE
// and refreshing.
type OAuthServer struct {
	*httptest.Server
	mu        sync.Mutex
	challenge map[string]string // code -> PKCE challenge
	access    map[string]bool   // valid access tokens
	refresh   map[string]bool
	n         int
	refreshes int
	exchanges int
}

// NewOAuthServer starts it; the caller closes it.
func NewOAuthServer() *OAuthServer {
	a := &OAuthServer{challenge: map[string]string{}, access: map[string]bool{}, refresh: map[string]bool{}}
	mux := http.NewServeMux()
	jsonH := func(path string, f http.HandlerFunc) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			f(w, r)
		})
	}
	mcpH := Handler()
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
	return a
}

func (a *OAuthServer) authorize(w http.ResponseWriter, r *http.Request) {
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

func (a *OAuthServer) token(w http.ResponseWriter, r *http.Request) {
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

// Counts is how many code exchanges and refreshes the token endpoint
// granted.
func (a *OAuthServer) Counts() (exchanges, refreshes int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.exchanges, a.refreshes
}
