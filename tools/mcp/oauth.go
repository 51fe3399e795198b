package mcp

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
)

// keel does not run OAuth sign-in for remote servers yet: a server that
// answers 401 with a Bearer challenge (the MCP authorization spec's
// start) is reported as such, with what to do instead, rather than as a
// bare HTTP error.

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
	case strings.HasPrefix(strings.ToLower(strings.TrimSpace(a.challenge)), "bearer"):
		return fmt.Errorf("the server asks for OAuth sign-in (401 Unauthorized), which keel does not support yet; "+
			"get a token from the service and set headers = { Authorization = \"Bearer ${TOKEN}\" } in [mcp.servers.%s]", name)
	}
	return fmt.Errorf("the server wants credentials (401 Unauthorized); set them with headers in [mcp.servers.%s]", name)
}
