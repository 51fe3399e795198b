package telemetry

import (
	"context"
	"errors"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent"
)

// burst ends n tool spans through the tracer, as a long task would.
func burst(tr *SessionTracer, n int) {
	tr.Observe(agent.TaskStarted{Seq: 1, Prompt: "p", At: time.Now()})
	for i := range n {
		id := "call_" + strconv.Itoa(i)
		tr.Observe(agent.ToolStarted{CallID: id, Name: "probe"})
		tr.Observe(agent.ToolFinished{CallID: id, Name: "probe"})
	}
	tr.Observe(agent.TaskStopped{Reason: agent.StopCompleted})
}

// A collector that takes nothing (it holds every post) fills the queue:
// the loop's side never waits, and the spans it could not queue are counted.
func TestFullQueueDropsAndNeverBlocks(t *testing.T) {
	c := newCollector(t)
	c.hold = make(chan struct{})
	e := startExporter(t, c, Options{QueueSize: 8, ExportTimeout: time.Minute})
	tr := e.Session(SessionInfo{Provider: "fake", Model: "m"})
	done := make(chan struct{})
	go func() {
		burst(tr, 2000)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("observing 2,000 tool calls did not return while the collector held its posts: the loop would block")
	}
	if e.Dropped() == 0 {
		t.Fatal("no span was counted as dropped with a queue of 8 and a collector that takes nothing")
	}
	if !strings.Contains(e.Status(), "dropped") {
		t.Errorf("status %q does not say what was dropped", e.Status())
	}
	close(c.hold)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_ = e.Shutdown(ctx)
}

// A collector nobody listens on costs one warning and a bounded shutdown.
func TestDeadCollectorWarnsOnce(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var mu sync.Mutex
	var warnings []string
	e, err := Start(context.Background(), Options{Endpoint: "http://" + addr, Getenv: func(string) string { return "" }, ExportTimeout: time.Second,
		Warn: func(s string) { mu.Lock(); warnings = append(warnings, s); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	tr := e.Session(SessionInfo{Provider: "fake", Model: "m"})
	burst(tr, 10)
	if err := e.Flush(context.Background()); err == nil {
		t.Error("flushing to a dead collector reported no error")
	}
	burst(tr, 10)
	tr.End("")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := time.Now()
	_ = e.Shutdown(ctx)
	if d := time.Since(start); d > 5*time.Second+time.Second {
		t.Errorf("shutdown took %s past its 5 s deadline", d)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(warnings) != 1 {
		t.Fatalf("%d warnings, want 1 per outage: %q", len(warnings), warnings)
	}
	if !strings.Contains(warnings[0], addr) || !strings.Contains(warnings[0], "keel carries on") {
		t.Errorf("warning %q does not name the collector or say keel carries on", warnings[0])
	}
	if e.Dropped() == 0 {
		t.Error("spans a dead collector never took are not counted as dropped")
	}
}

func TestProtocolOtherThanHTTPProtobufIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		ok          bool
	}{
		{"OTEL_EXPORTER_OTLP_PROTOCOL", "grpc", false},
		{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/json", false},
		{"OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf", true},
		{"OTEL_EXPORTER_OTLP_PROTOCOL", "", true},
	} {
		env := func(n string) string {
			if n == tc.name {
				return tc.value
			}
			return ""
		}
		_, err := Start(context.Background(), Options{Getenv: env})
		if tc.ok != (err == nil) || (err != nil && !errors.Is(err, ErrProtocol)) {
			t.Errorf("%s=%q: err = %v", tc.name, tc.value, err)
		}
		if err != nil && !strings.Contains(err.Error(), "4318") {
			t.Errorf("the error %q does not say what to do", err)
		}
	}
}

func TestWhereAndEnabledFollowTheVariables(t *testing.T) {
	env := map[string]string{}
	get := func(n string) string { return env[n] }
	if Enabled(get) {
		t.Error("enabled with no variable set")
	}
	if w := (Options{Getenv: get}).Where(); w != "http://localhost:4318" {
		t.Errorf("default where = %q", w)
	}
	if w := (Options{Getenv: get, Endpoint: "https://otel.example:443/base?token=x"}).Where(); w != "https://otel.example:443" {
		t.Errorf("config where = %q", w)
	}
	env["OTEL_EXPORTER_OTLP_ENDPOINT"] = "http://127.0.0.1:9999"
	if !Enabled(get) {
		t.Error("not enabled with OTEL_EXPORTER_OTLP_ENDPOINT set")
	}
	if w := (Options{Getenv: get, Endpoint: "https://otel.example"}).Where(); w != "http://127.0.0.1:9999" {
		t.Errorf("the variable does not win over the configuration: %q", w)
	}
	env["OTEL_SDK_DISABLED"] = "true"
	if Enabled(get) || !Disabled(get) {
		t.Error("OTEL_SDK_DISABLED=true does not turn it off")
	}
}
