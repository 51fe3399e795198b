package telemetry

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	colmetricpb "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// collector is a real OTLP/HTTP receiver on loopback: it decodes what
// the exporters post and keeps it.
type collector struct {
	srv *httptest.Server

	mu       sync.Mutex
	spans    []*tracepb.Span
	resource []*commonpb.KeyValue
	metrics  []string // metric names received
	posts    int
	status   int           // non-zero: answer every post with it
	hold     chan struct{} // non-nil: hold every post until closed
}

func newCollector(t *testing.T) *collector {
	c := &collector{}
	c.srv = httptest.NewServer(http.HandlerFunc(c.serve))
	t.Cleanup(c.close)
	return c
}

func (c *collector) close() {
	c.mu.Lock()
	if c.hold != nil {
		select {
		case <-c.hold:
		default:
			close(c.hold)
		}
	}
	c.mu.Unlock()
	c.srv.Close()
}

func (c *collector) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	c.mu.Lock()
	hold, status := c.hold, c.status
	c.posts++
	c.mu.Unlock()
	if hold != nil {
		<-hold
	}
	if status != 0 {
		w.WriteHeader(status)
		return
	}
	switch r.URL.Path {
	case "/v1/traces":
		var req coltracepb.ExportTraceServiceRequest
		if err := proto.Unmarshal(body, &req); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		c.mu.Lock()
		for _, rs := range req.ResourceSpans {
			c.resource = rs.GetResource().GetAttributes()
			for _, ss := range rs.ScopeSpans {
				c.spans = append(c.spans, ss.Spans...)
			}
		}
		c.mu.Unlock()
	case "/v1/metrics":
		var req colmetricpb.ExportMetricsServiceRequest
		if err := proto.Unmarshal(body, &req); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		c.mu.Lock()
		for _, rm := range req.ResourceMetrics {
			for _, sm := range rm.ScopeMetrics {
				for _, m := range sm.Metrics {
					c.metrics = append(c.metrics, m.Name)
				}
			}
		}
		c.mu.Unlock()
	default:
		w.WriteHeader(http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.WriteHeader(http.StatusOK)
}

func (c *collector) allSpans() []*tracepb.Span {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*tracepb.Span(nil), c.spans...)
}

func (c *collector) metricNames() map[string]bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := map[string]bool{}
	for _, n := range c.metrics {
		m[n] = true
	}
	return m
}

// named returns the spans called name.
func named(spans []*tracepb.Span, name string) []*tracepb.Span {
	var out []*tracepb.Span
	for _, s := range spans {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

// attr is a span attribute's value as text ("" when absent).
func attr(s *tracepb.Span, key string) string {
	for _, kv := range s.Attributes {
		if kv.Key == key {
			return anyText(kv.Value)
		}
	}
	return ""
}

func anyText(v *commonpb.AnyValue) string {
	switch x := v.Value.(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_IntValue:
		return strconv.FormatInt(x.IntValue, 10)
	case *commonpb.AnyValue_BoolValue:
		if x.BoolValue {
			return "true"
		}
		return "false"
	case *commonpb.AnyValue_DoubleValue:
		return "double"
	case *commonpb.AnyValue_ArrayValue:
		out := ""
		for i, e := range x.ArrayValue.Values {
			if i > 0 {
				out += ","
			}
			out += anyText(e)
		}
		return out
	}
	return ""
}
