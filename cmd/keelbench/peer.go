package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

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
// it has drawn, sends it one prompt that the model answers in text, and
// measures its idle CPU and wake-ups as TUIIdle does for keel. Both are
// measured after a task, so both hold their idle connection to the model:
// in Go's scheduler a connection parked in the network poller costs ~25
// wake-ups a second at idle (keel without one: 310/s, the peer's main
// screen: 310/s, keel after a task: 336/s).
func PeerIdle(ctx context.Context, peer string, log io.Writer) (IdleResult, error) {
	abs, d, err := tuiDirs(peer)
	defer os.RemoveAll(d.Root)
	if err != nil {
		return IdleResult{}, err
	}
	srv := llmtest.NewServer(peerScript)
	defer srv.Close()
	if err := writePeerConfig(d, srv.URL()); err != nil {
		return IdleResult{}, err
	}
	env := append(d.env(srv.URL(), ""), "CRUSH_DISABLE_METRICS=1", "DO_NOT_TRACK=1")
	t := newTmux("peer", env)
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
	if err := t.typeLine(ctx, peerPrompt); err != nil {
		return IdleResult{}, err
	}
	if err := waitFinished(ctx, srv, 1); err != nil {
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

// peerPrompt is the task the peer runs before it idles; peerScript answers
// every request in text, whatever the peer asks (a title, the answer).
const peerPrompt = "Say hello."

var peerScript = llmtest.Script{Handler: func(llmtest.RecordedRequest, int) llmtest.Round {
	return llmtest.Round{Text: "Hello.", Usage: &llmtest.Usage{PromptTokens: 100, CompletionTokens: 2}}
}}

// measurePeerIdle takes one sample of the peer's idle TUI, or says in
// m.PeerWhy why there is none.
func (o options) measurePeerIdle(ctx context.Context, m *Measurements, stderr io.Writer) (IdleResult, bool) {
	if o.peer == "" {
		m.PeerWhy = PeerNotAvailable + " (no -peer)"
		return IdleResult{}, false
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
		return idle, true
	}
	return IdleResult{}, false
}

// runTUIIdle is -tui-idle: keel's idle TUI, and with -peer the peer's
// beside it, idleRuns samples of each taken in turn, medians printed.
func (o options) runTUIIdle(ctx context.Context, stdout, stderr io.Writer) (int, error) {
	b := Budgets{Figures: []Budget{{Source: SourceTUIIdle, MaxPeer: o.peer != ""}}}
	m := []Measurements{{Skipped: map[string]string{}}}
	o.measureIdle(ctx, []string{o.keel}, m, b, stderr)
	if why, skipped := m[0].Skipped[SourceTUIIdle]; skipped {
		return 1, errors.New(why)
	}
	out := map[string]float64{"tui_idle_cpu_pct": m[0].TUIIdle.CPUPct, "tui_idle_wakeups_per_s": m[0].TUIIdle.WakeupsPerSec}
	if p := m[0].Peer; p != nil {
		out["peer_idle_cpu_pct"], out["peer_idle_wakeups_per_s"] = p.CPUPct, p.WakeupsPerSec
	} else if o.peer != "" {
		return 1, errors.New(m[0].PeerWhy)
	}
	return 0, o.print(stdout, out)
}
