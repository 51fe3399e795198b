package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/keel-dev/keel/agent/llmtest"
)

// PeerNotAvailable is what the peer column says when keelbench was given
// no peer binary (-peer), or it could not be run.
const PeerNotAvailable = "peer not available"

// peerConfig is crush's configuration for the fake model: one
// OpenAI-compatible provider at the fake server, its model as both of
// crush's models, so crush starts on its main screen (no onboarding).
const peerConfig = `{
  "providers": {
    "fake": {"type": "openai-compat", "base_url": %q, "api_key": "test-key", "discover_models": false,
      "models": [{"id": "gpt-test", "name": "gpt-test", "context_window": 128000, "default_max_tokens": 4096}]}
  },
  "models": {"large": {"model": "gpt-test", "provider": "fake"}, "small": {"model": "gpt-test", "provider": "fake"}}
}
`

// PeerIdle starts the peer's TUI (crush) in a private tmux server, with a
// fresh home whose configuration points it at the fake model, waits until
// it has drawn, and measures its idle CPU and wake-ups as TUIIdle does for
// keel. The peer runs no task: its idle cost is that of its main screen.
func PeerIdle(ctx context.Context, peer string, log io.Writer) (IdleResult, error) {
	abs, d, err := tuiDirs(peer)
	defer os.RemoveAll(d.Root)
	if err != nil {
		return IdleResult{}, err
	}
	srv := llmtest.NewServer(Workload{Rounds: 1}.Script())
	defer srv.Close()
	if err := writePeerConfig(d, srv.URL()); err != nil {
		return IdleResult{}, err
	}
	env := append(d.env(srv.URL(), ""), "CRUSH_DISABLE_METRICS=1", "DO_NOT_TRACK=1")
	t := tmux{sock: "keelbench-peer-" + strconv.Itoa(os.Getpid()), env: env}
	defer t.run(context.Background(), "kill-server")
	if err := t.run(ctx, "-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40", "-c", d.Project, abs); err != nil {
		return IdleResult{}, err
	}
	pid, err := t.keelPID(ctx, commName(abs))
	if err != nil {
		return IdleResult{}, err
	}
	fmt.Fprintf(log, "keelbench: peer TUI running as pid %d; idling\n", pid)
	if err := t.waitDrawn(ctx); err != nil {
		return IdleResult{}, err
	}
	return sampleIdle(ctx, pid)
}

// writePeerConfig writes crush's user configuration under the fake home.
func writePeerConfig(d Dirs, url string) error {
	dir := filepath.Join(d.ConfigHome(), "crush")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("make the peer's config dir: %w", err)
	}
	cfg := fmt.Sprintf(peerConfig, url)
	if err := os.WriteFile(filepath.Join(dir, "crush.json"), []byte(cfg), 0o600); err != nil {
		return fmt.Errorf("write the peer's config: %w", err)
	}
	return nil
}

// measurePeerIdle fills m.Peer, or says in m.PeerWhy why there is none.
func (o options) measurePeerIdle(ctx context.Context, m *Measurements, stderr io.Writer) {
	if o.peer == "" {
		m.PeerWhy = PeerNotAvailable + " (no -peer)"
		return
	}
	fmt.Fprintf(stderr, "keelbench: the peer's TUI idle CPU (%s)\n", o.peer)
	idle, err := PeerIdle(ctx, o.peer, stderr)
	switch {
	case errors.Is(err, ErrNoTmux):
		m.PeerWhy = PeerNotAvailable + " (no tmux)"
	case err != nil:
		fmt.Fprintf(stderr, "keelbench: peer idle: %v\n", err)
		m.PeerWhy = PeerNotAvailable + " (its run failed, see above)"
	default:
		m.Peer = &idle
	}
}
