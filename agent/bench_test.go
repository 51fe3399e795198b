package agent

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
)

// BenchmarkRoundOverhead measures what the loop adds between rounds: from
// the end of one response (the fake server's last byte) to the arrival of
// the next request, with a trivial read-only tool in between. The ns/op
// figure is a whole task of 20 rounds; gap-µs is the median per-round gap.
func BenchmarkRoundOverhead(b *testing.B) {
	const rounds = 20
	handler := func(_ llmtest.RecordedRequest, n int) llmtest.Round {
		if n%(rounds+1) == rounds {
			return llmtest.TextRound("done")
		}
		return llmtest.ToolRound(llmtest.Call{Name: "echo", Args: fmt.Sprintf(`{"path":"f%d"}`, n)})
	}
	srv := llmtest.NewServer(llmtest.Script{Handler: handler})
	defer srv.Close()
	var gaps []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := benchSession(srv)
		before := len(srv.Requests())
		if err := s.Submit(context.Background(), "go"); err != nil {
			b.Fatal(err)
		}
		for ev := range s.Events() {
			if _, ok := ev.(TaskStopped); ok {
				break
			}
		}
		s.Close()
		reqs := srv.Requests()[before:]
		for k := 1; k < len(reqs); k++ {
			gaps = append(gaps, reqs[k].ReceivedAt.Sub(reqs[k-1].FinishedAt))
		}
	}
	b.StopTimer()
	sort.Slice(gaps, func(i, j int) bool { return gaps[i] < gaps[j] })
	if len(gaps) > 0 {
		b.ReportMetric(float64(gaps[len(gaps)/2].Microseconds()), "gap-µs")
	}
}
