package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// jaegerVersion is the Jaeger built from the Go module proxy for the OTLP
// end-to-end tests (make jaeger).
const jaegerVersion = "v1.76.0"

// jaegerPath is where make jaeger puts the binary: the user's cache, so
// it is built once per machine.
func jaegerPath() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "keel-test", "jaeger-"+jaegerVersion, "jaeger")
}

// jaeger is a Jaeger all-in-one on loopback with in-memory storage.
type jaeger struct {
	otlp  string // OTLP/HTTP base URL
	query string // query API base URL
}

// startJaeger runs the binary make jaeger built, or skips saying how to
// build it.
func startJaeger(t *testing.T) *jaeger {
	t.Helper()
	bin := jaegerPath()
	if fi, err := os.Stat(bin); err != nil || fi.IsDir() {
		t.Skipf("Jaeger %s is not built at %s: run `make jaeger` (it builds it from the Go module proxy once, a few minutes; .ci/run does)", jaegerVersion, bin)
	}
	ports := freePorts(t, 3)
	j := &jaeger{otlp: "http://" + ports[0], query: "http://" + ports[1]}
	cfg := strings.NewReplacer("OTLP_ADDR", ports[0], "QUERY_ADDR", ports[1], "GRPC_ADDR", ports[2]).Replace(jaegerConfig)
	path := filepath.Join(t.TempDir(), "jaeger.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--config", path)
	var logs strings.Builder
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("start jaeger: %v", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("jaeger's log:\n%s", logs.String())
		}
	})
	waitFor(t, "Jaeger's query API", func() bool {
		resp, err := http.Get(j.query + "/api/services")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil && resp.StatusCode == http.StatusOK
	})
	return j
}

// jaegerConfig keeps Jaeger on loopback ports the test chose, its
// metrics off, and its batches short.
const jaegerConfig = `service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_query:
    storage:
      traces: mem
    http:
      endpoint: QUERY_ADDR
    grpc:
      endpoint: GRPC_ADDR
  jaeger_storage:
    backends:
      mem:
        memory:
          max_traces: 10000
receivers:
  otlp:
    protocols:
      http:
        endpoint: OTLP_ADDR
processors:
  batch:
    timeout: 100ms
exporters:
  jaeger_storage_exporter:
    trace_storage: mem
`

// freePorts picks n loopback addresses nobody listens on.
func freePorts(t *testing.T, n int) []string {
	t.Helper()
	var out []string
	var lns []net.Listener
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		out = append(out, ln.Addr().String())
	}
	for _, ln := range lns {
		ln.Close()
	}
	return out
}

// waitFor polls ready until it holds; the deadline only guards a hang.
func waitFor(t *testing.T, what string, ready func() bool) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for !ready() {
		if time.Now().After(deadline) {
			t.Fatalf("%s was not ready after 90 s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// jaegerSpan is a span as Jaeger's query API returns it.
type jaegerSpan struct {
	SpanID        string `json:"spanID"`
	OperationName string `json:"operationName"`
	References    []struct {
		RefType string `json:"refType"`
		SpanID  string `json:"spanID"`
	} `json:"references"`
	StartTime int64 `json:"startTime"` // µs
	Duration  int64 `json:"duration"`
	Tags      []struct {
		Key   string `json:"key"`
		Value any    `json:"value"`
	} `json:"tags"`
	ProcessID string `json:"processID"`
}

func (s jaegerSpan) tag(key string) string {
	for _, t := range s.Tags {
		if t.Key == key {
			return fmt.Sprint(t.Value)
		}
	}
	return ""
}

func (s jaegerSpan) parent() string {
	for _, r := range s.References {
		if r.RefType == "CHILD_OF" {
			return r.SpanID
		}
	}
	return ""
}

// trace waits until Jaeger holds a trace of service keel whose spans
// carry tag=value and wantSpans spans, and returns them.
func (j *jaeger) trace(t *testing.T, tag, value string, wantSpans int) (spans []jaegerSpan, service string) {
	t.Helper()
	tags, _ := json.Marshal(map[string]string{tag: value})
	u := j.query + "/api/traces?service=keel&limit=20&tags=" + url.QueryEscape(string(tags))
	waitFor(t, "the trace in Jaeger", func() bool {
		var body struct {
			Data []struct {
				Spans     []jaegerSpan `json:"spans"`
				Processes map[string]struct {
					ServiceName string `json:"serviceName"`
				} `json:"processes"`
			} `json:"data"`
		}
		resp, err := http.Get(u)
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		if json.NewDecoder(resp.Body).Decode(&body) != nil || len(body.Data) != 1 || len(body.Data[0].Spans) < wantSpans {
			return false
		}
		spans = body.Data[0].Spans
		for _, p := range body.Data[0].Processes {
			service = p.ServiceName
		}
		return true
	})
	return spans, service
}
