package discipline

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// poll is a job_output call on job id that returned fresh bytes of new
// output while the job runs (or after it ended).
func poll(id string, fresh int, running bool) ToolCall {
	out := fmt.Sprintf("job %s running=%v new=%d", id, running, fresh)
	return ToolCall{Name: "job_output", Args: NormalizeArgs(fmt.Sprintf(`{"job_id":%q}`, id)), ResultHash: Hash(out),
		Job: &Job{ID: id, Running: running, NewOutput: fresh}}
}

func TestJobPoll(t *testing.T) {
	start := ToolCall{Name: "run_command", Command: "make all", Args: `{"background":true,"command":"make all"}`, Job: &Job{ID: "1", Started: true, Running: true}}
	tests := []struct {
		name   string
		calls  []ToolCall
		nudges []int
		halts  []int
	}{
		// must not fire
		{"polling a job whose output grows", append([]ToolCall{start}, repeatCall(poll("1", 120, true), 12)...), nil, nil},
		// must fire, and never halt while it runs
		{"polling a silent job", append([]ToolCall{start}, repeatCall(poll("1", 0, true), 12)...), []int{4, 7, 10, 13}, nil},
		{"silent polls alternating with a listing", append([]ToolCall{start}, interleave(poll("1", 0, true), ToolCall{Name: "list_dir", Args: `{"path":"."}`, ResultHash: "same"}, 4)...), []int{6}, nil},
		// once the job has ended, polling it again is an ordinary repeat
		{"polling an ended job", append([]ToolCall{start}, repeatCall(poll("1", 0, false), 4)...), nil, []int{5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := quiet()
			p.Headless = true
			p.Set("stall_calls", 0)
			p.Set("alternation_halt", 4)
			if strings.Contains(tt.name, "listing") {
				p.Set("repeat_halt", 0) // the listing repeats; this case is about the polls
			}
			p.Set("reread", 0)
			p.Set("reread_halt", 0)
			x := newSession(t, p)
			for _, c := range tt.calls {
				x.round(c)
			}
			if got := calls(of(x.fired, KindJobPoll)); !slices.Equal(got, orEmpty(tt.nudges)) {
				t.Errorf("nudges at %v, want %v", got, tt.nudges)
			}
			if got := calls(of(x.fired, KindHalt)); !slices.Equal(got, orEmpty(tt.halts)) {
				t.Errorf("halts at %v, want %v", got, tt.halts)
			}
		})
	}
}

// Output from a job is progress: the stall nudge counts from there.
func TestJobOutputIsProgress(t *testing.T) {
	p := quiet()
	p.Set("stall_calls", 5)
	x := newSession(t, p)
	for i := range 12 {
		x.round(poll("1", 10*(i%4), true)) // new output every fourth poll... and none between
	}
	if got := of(x.fired, KindStall); len(got) != 0 {
		t.Errorf("stall at %v: output every few polls is progress", calls(got))
	}
}

func repeatCall(c ToolCall, n int) []ToolCall {
	out := make([]ToolCall, n)
	for i := range out {
		out[i] = c
	}
	return out
}

func interleave(a, b ToolCall, n int) []ToolCall {
	var out []ToolCall
	for range n {
		out = append(out, a, b)
	}
	return out
}
