package agent

import (
	"strings"
	"testing"
)

func TestOutboxMergesDeltasWhenFullAndKeepsOrder(t *testing.T) {
	o := newOutbox(2, nil)
	o.send(StateChanged{To: StateThinking}) // fills one slot
	o.delta(TextDelta{Text: "a"})           // fills the other
	for _, piece := range []string{"b", "c", "d"} {
		o.delta(TextDelta{Text: piece}) // channel full: merged and kept pending
	}
	o.delta(ToolCallStreaming{Index: 0, Name: "x"}) // may be dropped, must not jump ahead
	var got []string
	drain := func() {
		for {
			select {
			case ev := <-o.ch:
				switch e := ev.(type) {
				case TextDelta:
					got = append(got, "text:"+e.Text)
				case ToolCallStreaming:
					got = append(got, "tool")
				case StateChanged:
					got = append(got, "state")
				case TaskStopped:
					got = append(got, "stopped")
				}
			default:
				return
			}
		}
	}
	drain()
	done := make(chan struct{})
	go func() { o.send(TaskStopped{}); close(done) }()
	await(t, done, "the blocked send")
	drain()
	want := "state text:a text:bcd stopped"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("events = %q, want %q", s, want)
	}
}

func TestOutboxCloseReleasesBlockedSends(t *testing.T) {
	o := newOutbox(1, nil)
	o.send(Notice{Text: "fills"})
	done := make(chan struct{})
	go func() { o.send(TaskStopped{}); close(done) }()
	o.close()
	await(t, done, "the blocked send")
}
