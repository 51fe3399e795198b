package llmtest

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"
)

// ChatPath is the one endpoint the server answers.
const ChatPath = "/v1/chat/completions"

// Script says how the server answers: Rounds in order, one per request, or
// Handler when the answer depends on what was sent. A request past the end
// of Rounds gets a 500 naming the problem (and is recorded).
type Script struct {
	Rounds  []Round
	Handler func(req RecordedRequest, n int) Round // n is the 0-based request number
}

// Rounds is shorthand for a Script that serves rounds in order.
func Rounds(rs ...Round) Script { return Script{Rounds: rs} }

// Server is a fake OpenAI-compatible chat-completions server on loopback.
type Server struct {
	ts        *httptest.Server
	script    Script
	mu        sync.Mutex
	reqs      []*RecordedRequest
	done      chan struct{} // closed by Close to release hanging rounds
	closeOnce sync.Once
}

// TB is the part of testing.TB that Start uses; *testing.T satisfies it.
type TB interface {
	Helper()
	Cleanup(func())
}

// NewServer starts a server for script; call Close when done. It needs no
// *testing.T, so benchmarks and programs can use it.
func NewServer(script Script) *Server {
	s := &Server{script: script, done: make(chan struct{})}
	s.ts = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Start starts a server for script and closes it when the test ends.
func Start(t TB, script Script) *Server {
	t.Helper()
	s := NewServer(script)
	t.Cleanup(s.Close)
	return s
}

// URL returns the base URL to configure a client with; it ends in "/v1".
func (s *Server) URL() string { return s.ts.URL + "/v1" }

// Close releases hanging rounds, drops connections and stops the server.
// It is safe to call more than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.done)
		s.ts.CloseClientConnections()
		s.ts.Close()
	})
}

// Requests returns a copy of every request received so far, in order.
func (s *Server) Requests() []RecordedRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]RecordedRequest, len(s.reqs))
	for i, r := range s.reqs {
		out[i] = r.clone()
	}
	return out
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != ChatPath {
		writeError(w, http.StatusNotFound, fmt.Sprintf("llmtest: no route for %s %s; only POST %s exists", r.Method, r.URL.Path, ChatPath))
		return
	}
	rec := &RecordedRequest{ReceivedAt: time.Now(), Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), RemoteAddr: r.RemoteAddr}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "llmtest: reading body: "+err.Error())
		return
	}
	rec.Body = body
	decodeInto(rec)
	n := s.record(rec)
	defer s.finish(rec)

	round, ok := s.roundFor(rec, n)
	if !ok {
		msg := fmt.Sprintf("llmtest: request %d has no scripted round (the script has %d)", n, len(s.script.Rounds))
		writeError(w, http.StatusInternalServerError, msg)
		return
	}
	p := &player{s: s, w: w, r: r, round: &round, n: n, model: rec.Model}
	if rec.Stream {
		p.stream()
	} else {
		p.whole()
	}
}

func (s *Server) record(rec *RecordedRequest) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec.N = len(s.reqs)
	s.reqs = append(s.reqs, rec)
	return rec.N
}

func (s *Server) finish(rec *RecordedRequest) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec.FinishedAt = time.Now()
}

func (s *Server) roundFor(rec *RecordedRequest, n int) (Round, bool) {
	if s.script.Handler != nil {
		s.mu.Lock()
		c := rec.clone()
		s.mu.Unlock()
		return s.script.Handler(c, n), true
	}
	if n < len(s.script.Rounds) {
		return s.script.Rounds[n], true
	}
	return Round{}, false
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, errorBody(msg, errorType(status), ""))
}
