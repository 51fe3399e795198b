package mcp

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/keel-dev/keel/tools"
	"github.com/keel-dev/keel/tools/mcp/mcptest"
	"github.com/keel-dev/keel/tools/sandbox"
)

// serverEnv makes the test binary run as mcptest's stdio server.
const serverEnv = "KEEL_MCPTEST_SERVE"

func TestMain(m *testing.M) {
	sandbox.Main() // the test binary also plays keel's sandbox helper
	if os.Getenv(serverEnv) == "1" {
		mcptest.ServeStdio()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// stdioServer is a server config running this test binary as mcptest's
// server, with extra environment for it.
func stdioServer(name string, env map[string]string) ServerConfig {
	e := map[string]string{serverEnv: "1"}
	for k, v := range env {
		e[k] = v
	}
	return ServerConfig{Name: name, Command: os.Args[0], Env: e}
}

// notices collects a manager's notices.
type notices struct {
	mu   sync.Mutex
	list []string
	ch   chan string
}

func newNotices() *notices { return &notices{ch: make(chan string, 16)} }

func (n *notices) add(s string) {
	n.mu.Lock()
	n.list = append(n.list, s)
	n.mu.Unlock()
	n.ch <- s
}

func (n *notices) all() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.list...)
}

// wait returns the next notice; the deadline only keeps a broken test
// from hanging.
func (n *notices) wait(t *testing.T) string {
	t.Helper()
	select {
	case s := <-n.ch:
		return s
	case <-time.After(time.Minute):
		t.Fatal("no notice came")
		return ""
	}
}

// newManager starts a manager over servers and closes it after the test.
func newManager(t *testing.T, opts Options, servers ...ServerConfig) (*Manager, *notices) {
	t.Helper()
	n := newNotices()
	opts.Notify = n.add
	if opts.Env == nil {
		opts.Env = []string{"PATH=" + os.Getenv("PATH")}
	}
	m := New(servers, opts)
	t.Cleanup(m.Close)
	m.Start()
	return m, n
}

// started waits until the manager's servers have started.
func started(t *testing.T, m *Manager) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	m.WaitStarted(ctx)
}

// call runs a member tool by name with JSON arguments.
func call(t *testing.T, ctx context.Context, m *Manager, name, args string) tools.Result {
	t.Helper()
	tool, ok := m.Member(name)
	if !ok {
		t.Fatalf("no member %s; members: %v", name, memberNames(m))
	}
	res, err := tool.Run(ctx, json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s: harness error %v", name, err)
	}
	return res
}

func memberNames(m *Manager) string {
	var names []string
	for _, t := range m.Members() {
		names = append(names, t.Name())
	}
	return strings.Join(names, " ")
}
