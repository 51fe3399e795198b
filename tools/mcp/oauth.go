package mcp

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
)

// A server that answers 401 is reported with what to do rather than as
// a bare HTTP error: one with a Bearer challenge (the MCP authorization
// spec's start) and no sign-in possible (no token file) names what is
// missing; signin.go handles it otherwise.

// authSeen keeps the last 401 a server's transport saw.
type authSeen struct {
	mu        sync.Mutex
	challenge string // the WWW-Authenticate header; "" when none came
	sentAuth  bool   // the refused request carried an Authorization header
}

func (a *authSeen) note(resp *http.Response, req *http.Request) {
	if resp.StatusCode != http.StatusUnauthorized {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.challenge = resp.Header.Get("WWW-Authenticate")
	if a.challenge == "" {
		a.challenge = "401"
	}
	a.sentAuth = req.Header.Get("Authorization") != ""
}

// problem is the error a start that met a 401 gets, or nil.
func (a *authSeen) problem(name string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case a.challenge == "":
		return nil
	case a.sentAuth:
		return fmt.Errorf("the server refused the Authorization header of [mcp.servers.%s] (401 Unauthorized): check the token it sends", name)
	case a.bearerLocked():
		return fmt.Errorf("the server asks for OAuth sign-in (401 Unauthorized), which needs keel's data dir (set HOME or XDG_DATA_HOME, then run `keel mcp login %s`); "+
			"or get a token from the service and set headers = { Authorization = \"Bearer ${TOKEN}\" } in [mcp.servers.%s]", name, name)
	}
	return fmt.Errorf("the server wants credentials (401 Unauthorized); set them with headers in [mcp.servers.%s]", name)
}

// bearer reports whether the last 401 came with a Bearer challenge.
func (a *authSeen) bearer() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.bearerLocked()
}

func (a *authSeen) bearerLocked() bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(a.challenge)), "bearer")
}
