package ui

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/ui/dialog"
	"github.com/keel-dev/keel/ui/transcript"
)

// longResumed writes a 40-round session (one answer per round) to a real
// datalog and opens the UI as keel -c does for a long session: the last
// tail rounds first, the rest loaded by the Cmd the test runs itself.
func longResumed(t *testing.T, tail int) (*Model, *datalog.SessionDetail) {
	t.Helper()
	ctx := context.Background()
	db, sid := testDatalog(t, "/p")
	for seq := 1; seq <= 40; seq++ {
		msgs := []llm.Message{{Role: llm.RoleAssistant, Content: fmt.Sprintf("answer number %d", seq)}}
		if seq == 1 {
			msgs = append([]llm.Message{{Role: llm.RoleUser, Content: "the first prompt"}}, msgs...)
		}
		r := datalog.RoundRecord{Round: datalog.Round{SessionID: sid, Seq: seq, TaskSeq: 1, FinishReason: "stop", Started: time.Now()}, Messages: msgs}
		if err := db.WriteRound(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	s := resumedSession(t, db, sid)
	d, err := db.LoadTranscriptTail(ctx, sid, tail)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := db.LoadTranscript(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	dark := true
	m := New(Options{Session: s, Bridge: dialog.NewBridge(), Resumed: d, ResumedRest: func() *datalog.SessionDetail { return whole },
		ProviderLabel: "openai", Model: "gpt-test", ContextWindow: 128000, Dark: &dark, Width: 100, Height: 24})
	return m, whole
}

// The first screen shows the last rounds at once; the earlier ones arrive
// above them without moving what is on screen, at the bottom or scrolled.
func TestResumedTailThenRest(t *testing.T) {
	for _, scrolled := range []bool{false, true} {
		t.Run(fmt.Sprintf("scrolled=%v", scrolled), func(t *testing.T) {
			m, _ := longResumed(t, 25)
			first := plain(m)
			if !strings.Contains(first, "answer number 40") {
				t.Fatalf("first screen lacks the last answer:\n%s", first)
			}
			if scrolled {
				send(m, press("pgup"))
			}
			before := plain(m)
			cmd := m.loadResumedRest()
			if cmd == nil {
				t.Fatal("no Cmd loads the rest of a tail")
			}
			send(m, cmd())
			if after := plain(m); after != before {
				t.Errorf("the screen moved when the rest arrived:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			start, end := topAndBottom(m)
			for _, want := range []string{"› the first prompt", "answer number 1 "} {
				if !strings.Contains(start, want) {
					t.Errorf("the transcript's start lacks %q:\n%s", want, start)
				}
			}
			if !strings.Contains(end, "answer number 40") {
				t.Errorf("the transcript's end lacks the last answer:\n%s", end)
			}
			if strings.Contains(start, "loading the earlier rounds") {
				t.Error("the loading note stayed")
			}
			if m.loadResumedRest() != nil {
				t.Error("the rest would load twice")
			}
		})
	}
}

// Until the rest arrives, the transcript starts with a note that it is
// loading, and not with the task's prompt, which is above the tail.
func TestResumedTailStartsWithTheLoadingNote(t *testing.T) {
	m, _ := longResumed(t, 25)
	start, _ := topAndBottom(m)
	if !strings.Contains(start, "loading the earlier rounds of this session") || strings.Contains(start, "› the first prompt") {
		t.Errorf("the tail's start:\n%s", start)
	}
}

// A session short enough to load whole needs no second load.
func TestResumedWholeNeedsNoRest(t *testing.T) {
	m, _ := longResumed(t, 100)
	if m.loadResumedRest() != nil {
		t.Error("a whole transcript asks for its rest")
	}
	if start, _ := topAndBottom(m); !strings.Contains(start, "› the first prompt") {
		t.Errorf("the whole transcript lacks the first prompt:\n%s", start)
	}
}

// topAndBottom are the screens at the transcript's start (home) and end
// (end), as the user scrolls to them.
func topAndBottom(m *Model) (string, string) {
	send(m, press("home"))
	top := plain(m)
	send(m, press("end"))
	return top, plain(m)
}

// A resumed session's status bar and /cost count what the session used
// before this run, not only this run's (the agent counts from zero).
func TestResumedStatusCountsEarlierUse(t *testing.T) {
	d := &datalog.SessionDetail{Session: datalog.Session{ID: "s1", Totals: datalog.Totals{TokensIn: 1000, TokensOut: 100, Cost: 0.5}}}
	dark := true
	s := agent.New(agent.Options{ProviderName: "openai", Model: "gpt-test", SessionID: "s1"})
	t.Cleanup(s.Close)
	m := New(Options{Session: s, Bridge: dialog.NewBridge(), Resumed: d, ProviderLabel: "openai", Model: "gpt-test", Dark: &dark, Width: 120, Height: 20})
	if bar := plain(m); !strings.Contains(bar, "$0.50") || !strings.Contains(bar, "1,000 in") && !strings.Contains(bar, "1.0k in") {
		t.Errorf("the resumed bar does not count the earlier use:\n%s", bar)
	}
	cost := 0.25
	send(m, events(agent.UsageUpdated{Session: llm.Usage{PromptTokens: 500, CompletionTokens: 50}, CostUSD: &cost}))
	if bar := plain(m); !strings.Contains(bar, "$0.75") {
		t.Errorf("after this run's use the bar lacks $0.75:\n%s", bar)
	}
	other := agent.New(agent.Options{ProviderName: "openai", Model: "gpt-test", SessionID: "s2"})
	t.Cleanup(other.Close)
	send(m, SessionMsg{Session: other, ProviderLabel: "openai", Model: "gpt-test"})
	if bar := plain(m); !strings.Contains(bar, "0 in · 0 out") || strings.Contains(bar, "$0.") {
		t.Errorf("another session keeps the first one's figures:\n%s", bar)
	}
}

// The rest loads only after the first frame: Init's chain ticks once (one
// frame interval, the interval of Bubble Tea's first frame) before the
// load's Cmd exists, so reading thousands of rounds does not compete with
// drawing the first screen.
func TestResumedRestWaitsForFirstFrame(t *testing.T) {
	m, whole := longResumed(t, 25)
	var loads atomic.Int32
	m.opts.ResumedRest = func() *datalog.SessionDetail { loads.Add(1); return whole }
	tick := m.afterFirstFrame()
	if tick == nil {
		t.Fatal("a resumed tail has no Cmd leading to its rest")
	}
	start := time.Now()
	msg := tick()
	if _, ok := msg.(firstFrameMsg); !ok {
		t.Fatalf("Init's chain returned %#v; want firstFrameMsg", msg)
	}
	if waited := time.Since(start); waited < transcript.FrameInterval {
		t.Errorf("the chain waited %v, less than a frame interval (%v)", waited, transcript.FrameInterval)
	}
	if n := loads.Load(); n != 0 {
		t.Fatalf("the rest was loaded %d times before the first frame", n)
	}
	_, load := m.Update(msg)
	if load == nil {
		t.Fatal("firstFrameMsg did not start the load")
	}
	rest, ok := load().(resumedRestMsg)
	if !ok || len(rest.entries) == 0 || loads.Load() != 1 {
		t.Fatalf("the load returned %#v with %d loads; want the whole transcript, loaded once", rest, loads.Load())
	}
	short, _ := longResumed(t, 100)
	if short.afterFirstFrame() != nil {
		t.Error("a whole transcript waits for a first frame to load nothing")
	}
}
