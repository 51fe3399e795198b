package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/tools"
)

// recordedSession is a session logging to a real datalog file.
func recordedSession(t *testing.T, script llmtest.Script, mutate func(*Options)) (*Session, *datalog.DB, string) {
	t.Helper()
	s, db, id, _ := recordedSessionServer(t, script, mutate)
	return s, db, id
}

// recordedSessionServer is recordedSession with its fake server, for
// tests that read the requests keel sent.
func recordedSessionServer(t *testing.T, script llmtest.Script, mutate func(*Options)) (*Session, *datalog.DB, string, *llmtest.Server) {
	t.Helper()
	db, err := datalog.Open(filepath.Join(t.TempDir(), "keel.db"), datalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	id, err := db.StartSession(context.Background(), datalog.Session{ProjectRoot: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	s, server := newSession(t, script, func(o *Options) {
		o.Recorder = NewRecorder(db, id, 0, false)
		o.SessionID = id
		if mutate != nil {
			mutate(o)
		}
	})
	return s, db, id, server
}

// However a task ends, its last transition and stop reason are in the
// datalog when TaskStopped arrives.
func TestLastTransitionIsRecorded(t *testing.T) {
	read := llmtest.Call{Name: "echo", Args: `{"path":"a"}`}
	cases := []struct {
		name   string
		rounds []llmtest.Round
		limits Limits
		cancel bool
		want   StopReason
	}{
		{"completed", []llmtest.Round{llmtest.TextRound("done")}, Limits{}, false, StopCompleted},
		{"halted", []llmtest.Round{llmtest.ToolRound(read), llmtest.ToolRound(read)}, Limits{MaxTurns: 1}, false, StopMaxTurns},
		{"failed", []llmtest.Round{llmtest.ErrorRound(http.StatusBadRequest, "bad request")}, Limits{}, false, StopProviderError},
		{"cancelled", []llmtest.Round{llmtest.ToolRound(llmtest.Call{Name: "wait"})}, Limits{}, true, StopCancelled},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			started := make(chan struct{})
			s, db, id := recordedSession(t, llmtest.Rounds(c.rounds...), func(o *Options) {
				o.Limits = c.limits
				o.Tools = []tools.Tool{echoTool(), blockingTool(started)}
			})
			if err := s.Submit(context.Background(), "go"); err != nil {
				t.Fatal(err)
			}
			if c.cancel {
				await(t, started, "the tool to start")
				s.Cancel()
			}
			_, st := collect(t, s)
			if st.Reason != c.want {
				t.Fatalf("stopped with %s, want %s", st.Reason, c.want)
			}
			d, err := db.LoadSession(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			var last datalog.StateTransition
			for _, rd := range d.Rounds {
				if n := len(rd.Transitions); n > 0 {
					last = rd.Transitions[n-1]
				}
			}
			if last.To != string(c.want.finalState()) || d.Session.StopReason != string(c.want) {
				t.Errorf("last transition %+v, stop reason %q; want → %s, %s", last, d.Session.StopReason, c.want.finalState(), c.want)
			}
		})
	}
}

// A response cut by the provider's content filter runs none of its calls.
func TestFilteredResponseRunsNothing(t *testing.T) {
	write := &fakeTool{name: "write", class: tools.Write}
	filtered := llmtest.Round{ToolCalls: []llmtest.Call{{Name: "write", Args: `{"path":"a"}`}}, FinishReason: "content_filter"}
	s, srv := newSession(t, llmtest.Rounds(filtered, llmtest.TextRound("ok")), func(o *Options) {
		o.Tools = []tools.Tool{write}
	})
	_, st := runTask(t, context.Background(), s, "go")
	if st.Reason != StopCompleted || write.calls.Load() != 0 {
		t.Fatalf("stopped %s with %d calls run; want completed and none", st.Reason, write.calls.Load())
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1].Messages
	if m := last[len(last)-1]; m.Role != "tool" || !strings.Contains(m.Content, "content filter") {
		t.Errorf("the model was not told why: %+v", m)
	}
}

// A round of many identical calls stops where the repeat guard halts,
// not after running them all.
func TestHaltStopsTheRound(t *testing.T) {
	tool := &fakeTool{name: "write", class: tools.Write, run: func(context.Context, json.RawMessage) (tools.Result, error) {
		return tools.Result{Output: "same"}, nil
	}}
	var calls []llmtest.Call
	for range 50 {
		calls = append(calls, llmtest.Call{Name: "write", Args: `{"path":"a"}`})
	}
	s, _ := newSession(t, llmtest.Rounds(llmtest.ToolRound(calls...), llmtest.TextRound("never")), func(o *Options) {
		o.Tools = []tools.Tool{tool}
	})
	_, st := runTask(t, context.Background(), s, "go")
	halt := s.opts.Discipline.Int("repeat_halt")
	if st.Reason != StopLoopDetected || int(tool.calls.Load()) != halt {
		t.Fatalf("stopped %s after %d of 50 calls; want loop_detected after %d", st.Reason, tool.calls.Load(), halt)
	}
}

// A round is committed to SQLite before the next request leaves: the
// server never finds request N without round N in the database, read
// through a connection of its own, as another keel (keel log) would.
func TestRoundIsStoredBeforeTheNextRequestLeaves(t *testing.T) {
	const rounds = 6
	var (
		db     *datalog.DB
		id     string
		mu     sync.Mutex
		stored []int // rounds in the datalog when each request arrived
	)
	script := llmtest.Script{Handler: func(_ llmtest.RecordedRequest, n int) llmtest.Round {
		other, err := datalog.Open(db.Path(), datalog.Options{ReadOnly: true})
		if err != nil {
			t.Error(err)
			return llmtest.TextRound("done")
		}
		defer other.Close()
		d, err := other.LoadSession(context.Background(), id)
		mu.Lock()
		if err == nil {
			stored = append(stored, len(d.Rounds))
		} else {
			stored = append(stored, -1)
		}
		mu.Unlock()
		if n < rounds-1 {
			return llmtest.ToolRound(llmtest.Call{Name: "echo", Args: fmt.Sprintf(`{"path":"a%d"}`, n)})
		}
		return llmtest.TextRound("done")
	}}
	s, d, sid := recordedSession(t, script, func(o *Options) { o.Tools = []tools.Tool{echoTool()} })
	db, id = d, sid
	if err := s.Submit(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	if _, st := collect(t, s); st.Reason != StopCompleted {
		t.Fatalf("stopped with %s", st.Reason)
	}
	mu.Lock()
	defer mu.Unlock()
	for n, got := range stored {
		if got != n {
			t.Errorf("request %d arrived with %d round(s) committed, want %d (all: %v)", n, got, n, stored)
			break
		}
	}
	if len(stored) != rounds {
		t.Errorf("%d requests, want %d", len(stored), rounds)
	}
}
