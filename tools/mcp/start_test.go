package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/keel-dev/keel/tools/mcp/mcptest"
)

func TestStartNeverWaitsAndAHangingServerTimesOut(t *testing.T) {
	srv := stdioServer("slow", map[string]string{mcptest.ModeEnv: "hang-start"})
	srv.StartTimeout = 2 * time.Second
	m, n := newManager(t, Options{}, srv)
	if st := m.Status(0)[0].State; st != StateStarting {
		t.Fatalf("state right after Start = %v, want starting (Start must not wait)", st)
	}
	got := n.wait(t)
	if !strings.Contains(got, `MCP server "slow" could not start: it did not answer within 2s`) || !strings.Contains(got, "startup_timeout") {
		t.Errorf("notice = %q", got)
	}
	if st := m.Status(3)[0]; st.State != StateFailed || !strings.Contains(st.Stderr, "mcptest: starting") {
		t.Errorf("status = %+v", st)
	}
}

func TestAFailedStartIsReportedOnceAndTriedAgainOnUse(t *testing.T) {
	m, n := newManager(t, Options{}, stdioServer("bad", map[string]string{mcptest.ModeEnv: "exit-start"}))
	got := n.wait(t)
	if !strings.Contains(got, `"bad" could not start`) || !strings.Contains(got, "refusing to start") {
		t.Errorf("notice = %q, want the reason and the server's last stderr line", got)
	}
	res := call(t, context.Background(), m, "mcp__bad__echo", `{"text":"x"}`) // pending: never listed
	if !res.IsError || !strings.Contains(res.Output, `the MCP server "bad" is not available`) {
		t.Errorf("call = %+v", res)
	}
	if st := m.Status(0)[0]; st.Starts != 2 || st.State != StateFailed {
		t.Errorf("status = %v after %d starts, want failed after 2", st.State, st.Starts)
	}
	if got := n.all(); len(got) != 1 {
		t.Errorf("notices = %q, want one", got)
	}
}

func TestMembersOfAServerNotStartedYet(t *testing.T) {
	n := newNotices()
	m := New([]ServerConfig{stdioServer("test", nil), {Name: "broken", Problem: "command must be a string"}},
		Options{Env: []string{"PATH=/usr/bin:/bin"}, Notify: n.add})
	t.Cleanup(m.Close)
	if len(m.Members()) != 0 {
		t.Fatalf("members before any start: %s", memberNames(m))
	}
	tests := []struct {
		name string
		ok   bool
	}{
		{"mcp__test__echo", true},     // pending: Run starts the server
		{"mcp__test__anything", true}, // not known yet either
		{"mcp__broken__echo", false},  // a server whose configuration is broken
		{"mcp__nope__echo", false},
		{"mcp__", false},
		{"read_file", false},
	}
	for _, tt := range tests {
		if _, ok := m.Member(tt.name); ok != tt.ok {
			t.Errorf("Member(%s) = %v, want %v", tt.name, ok, tt.ok)
		}
	}
	if res := call(t, context.Background(), m, "mcp__test__echo", `{"text":"lazy"}`); res.Output != "echo: lazy" {
		t.Fatalf("a pending tool's call = %+v, want the server started and the tool run", res)
	}
	if _, ok := m.Member("mcp__test__anything"); ok {
		t.Error("once the server listed its tools, an unknown name is no member")
	}
	if st := m.Status(0)[1]; st.Name != "test" || st.State != StateReady {
		t.Errorf("status = %+v", st)
	}
	if st := m.Status(0)[0]; st.State != StateDisabled || st.Err != "command must be a string" || st.Starts != 0 {
		t.Errorf("broken server status = %+v", st)
	}
}

func TestStartFailuresAreClear(t *testing.T) {
	tests := []struct {
		name string
		cfg  ServerConfig
		want string
	}{
		{"missing command", ServerConfig{Name: "gone", Command: "/nonexistent/keel-mcp-server"}, "no such file or directory"},
		{"unreachable URL", ServerConfig{Name: "far", URL: "http://127.0.0.1:1/mcp"}, "connection refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, n := newManager(t, Options{}, tt.cfg)
			if got := n.wait(t); !strings.Contains(got, "could not start") || !strings.Contains(got, tt.want) || strings.Contains(got, "\n") {
				t.Errorf("notice = %q, want one line containing %q", got, tt.want)
			}
		})
	}
}

func TestHTTPServer(t *testing.T) {
	var mu sync.Mutex
	var auth []string
	h := mcptest.Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	t.Setenv("KEEL_TEST_HTTP_TOKEN", "s3cret")
	m, _ := newManager(t, Options{}, ServerConfig{Name: "web", URL: ts.URL + "?key=x", Headers: map[string]string{"Authorization": "Bearer ${KEEL_TEST_HTTP_TOKEN}"}})
	res := call(t, context.Background(), m, "mcp__web__echo", `{"text":"over http"}`)
	if res.Output != "echo: over http" {
		t.Fatalf("call = %+v", res)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, a := range auth {
		if a != "Bearer s3cret" {
			t.Errorf("a request carried Authorization %q", a)
		}
	}
	if st := m.Status(0)[0]; st.Transport != "http" || strings.Contains(st.Target, "key=x") {
		t.Errorf("status = %+v, want http without the query", st)
	}
}

func TestHTTPHangingCallTimesOut(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "marker")
	t.Setenv(mcptest.MarkerEnv, marker) // the server runs in this process
	ts := httptest.NewServer(mcptest.Handler())
	t.Cleanup(ts.Close)
	m, _ := newManager(t, Options{}, ServerConfig{Name: "web", URL: ts.URL, CallTimeout: 200 * time.Millisecond})
	res := call(t, context.Background(), m, "mcp__web__hang", `{}`)
	if !res.IsError || !strings.Contains(res.Output, "did not answer within 200ms") {
		t.Errorf("call = %+v", res)
	}
	waitFile(t, marker, "cancelled")
}

// TestHTTPServerRestartedIsConnectedAgain: a call to an HTTP server that
// is down fails and says so; once the server is back without the session
// (a restart), the call it refused unrun is made again on a new one.
func TestHTTPServerRestartedIsConnectedAgain(t *testing.T) {
	var (
		mu   sync.Mutex
		h    = mcptest.Handler()
		down bool
	)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hh, d := h, down
		mu.Unlock()
		if d {
			http.Error(w, "gone", http.StatusBadGateway)
			return
		}
		hh.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	m, n := newManager(t, Options{}, ServerConfig{Name: "web", URL: ts.URL})
	ctx := context.Background()
	if res := call(t, ctx, m, "mcp__web__echo", `{"text":"1"}`); res.Output != "echo: 1" {
		t.Fatalf("first call = %+v", res)
	}
	set := func(d bool, fresh bool) {
		mu.Lock()
		defer mu.Unlock()
		down = d
		if fresh {
			h = mcptest.Handler() // the restarted server knows no session
		}
	}
	set(true, false)
	res := call(t, ctx, m, "mcp__web__echo", `{"text":"2"}`)
	if !res.IsError || !strings.Contains(res.Output, "Bad Gateway") {
		t.Fatalf("a call to a server that is gone = %+v", res)
	}
	set(false, true)
	if res := call(t, ctx, m, "mcp__web__echo", `{"text":"3"}`); res.Output != "echo: 3" {
		t.Errorf("the call after the restart = %+v, want it made again on a new session", res)
	}
	if st := m.Status(0)[0]; st.State != StateReady || st.Starts != 2 {
		t.Errorf("status = %v after %d starts, want ready after 2", st.State, st.Starts)
	}
	if got := n.all(); len(got) != 1 || !strings.Contains(got[0], `"web" stopped`) {
		t.Errorf("notices = %q, want the lost session reported once", got)
	}
}

// A server that wants OAuth sign-in is reported as such, with what to do;
// one that refuses the configured token says so.
func TestHTTPServerAskingForOAuth(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://`+r.Host+`/.well-known/oauth-protected-resource"`)
		http.Error(w, "unauthorized", http.StatusUnauthorized)
	}))
	t.Cleanup(ts.Close)
	for _, tt := range []struct {
		headers map[string]string
		want    string
	}{
		{nil, "the server asks for OAuth sign-in (401 Unauthorized), which needs keel's data dir (set HOME or XDG_DATA_HOME, then run `keel mcp login web`); or get a token from the service and set headers = { Authorization = \"Bearer ${TOKEN}\" } in [mcp.servers.web]"},
		{map[string]string{"Authorization": "Bearer old"}, "the server refused the Authorization header of [mcp.servers.web] (401 Unauthorized)"},
	} {
		_, n := newManager(t, Options{}, ServerConfig{Name: "web", URL: ts.URL, Headers: tt.headers})
		if got := n.wait(t); !strings.Contains(got, tt.want) || strings.Count(got, "401") != 1 {
			t.Errorf("notice = %q\nwant it to contain %q", got, tt.want)
		}
	}
}
