package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/tools"
)

const checkpointMark = "[Checkpoint:"

// distinctCalls scripts n rounds of one echo call each, all different,
// then a final answer.
func distinctCalls(n int) []llmtest.Round {
	rs := make([]llmtest.Round, 0, n+1)
	for i := 1; i <= n; i++ {
		rs = append(rs, llmtest.ToolRound(call(fmt.Sprintf("c%d", i), "echo", fmt.Sprintf(`{"path":"f%d"}`, i))))
	}
	return append(rs, llmtest.TextRound("all done"))
}

// checkpointRequests lists the 1-based requests whose last message is a checkpoint.
func checkpointRequests(srv *llmtest.Server) []int {
	var at []int
	for i, r := range srv.Requests() {
		last := r.Messages[len(r.Messages)-1]
		if last.Role == "user" && strings.Contains(last.Content, checkpointMark) {
			at = append(at, i+1)
		}
	}
	return at
}

func TestCadenceCheckpointsLandAfterCalls10And20(t *testing.T) {
	cases := []struct {
		cadence int
		want    string
	}{
		{10, "[11 21]"},
		{0, "[]"},
		{7, "[8 15 22]"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("cadence %d", c.cadence), func(t *testing.T) {
			s, srv := newSession(t, llmtest.Rounds(distinctCalls(25)...), func(o *Options) {
				o.Discipline.ReflectionCadence = c.cadence
				o.Discipline.Set("stall_calls", 0)
			})
			evs, st := runTask(t, context.Background(), s, "walk 25 files")
			if st.Reason != StopCompleted {
				t.Fatalf("stop %s: %s", st.Reason, st.Message)
			}
			if got := fmt.Sprint(checkpointRequests(srv)); got != c.want && !(c.want == "[]" && got == "[]") {
				t.Errorf("checkpoints in requests %s, want %s", got, c.want)
			}
			fired := 0
			for _, in := range eventsOf[InterventionFired](evs) {
				if in.Intervention.Kind == "reflection" {
					fired++
				}
			}
			if want := strings.Count(c.want, " ") + 1; c.want != "[]" && fired != want {
				t.Errorf("reflection events = %d, want %d", fired, want)
			}
		})
	}
}

func TestNewTaskRestartsTheCadenceCount(t *testing.T) {
	rounds := append(distinctCalls(6), distinctCalls(6)...)
	s, srv := newSession(t, llmtest.Rounds(rounds...), func(o *Options) { o.Discipline.ReflectionCadence = 10 })
	for _, p := range []string{"first", "second"} {
		if _, st := runTask(t, context.Background(), s, p); st.Reason != StopCompleted {
			t.Fatalf("%s: %s", p, st.Reason)
		}
	}
	if got := checkpointRequests(srv); len(got) != 0 {
		t.Errorf("12 calls over two tasks of 6 fired checkpoints at %v", got)
	}
}

func TestCheckpointReplyIsAttached(t *testing.T) {
	rounds := distinctCalls(3)
	rounds = append(rounds[:3], llmtest.Round{Text: "The task is X; next I edit Y.", ToolCalls: []llmtest.Call{call("z", "echo", `{"path":"z"}`)}}, llmtest.TextRound("done"))
	s, _ := newSession(t, llmtest.Rounds(rounds...), func(o *Options) { o.Discipline.ReflectionCadence = 3 })
	evs, st := runTask(t, context.Background(), s, "go")
	ans := eventsOf[InterventionAnswered](evs)
	if len(ans) != 1 || ans[0].Text != "The task is X; next I edit Y." {
		t.Fatalf("answers = %+v", ans)
	}
	if in := st.Summary.Interventions; len(in) != 1 || in[0].Reply != ans[0].Text || in[0].AtToolCall != 3 {
		t.Errorf("summary interventions = %+v", in)
	}
}

func TestReadLoopGetsRereadThenHalt(t *testing.T) {
	dir := t.TempDir()
	var lines strings.Builder
	for i := 1; i <= 50; i++ {
		fmt.Fprintf(&lines, "line %d\n", i)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte(lines.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	read := llmtest.ToolRound(call("", "read_file", `{"path":"a.txt"}`))
	s, _ := newSession(t, llmtest.Rounds(read, read, read, read, read, read), func(o *Options) {
		o.Tools = tools.New(ws, tools.Options{})
		o.Workdir = ws.Root()
	})
	_, st := runTask(t, context.Background(), s, "read it")
	if st.Reason != StopLoopDetected || !st.Reason.Halted() {
		t.Fatalf("stop = %s (%s), want loop_detected", st.Reason, st.Message)
	}
	var kinds []string
	for _, in := range st.Summary.Interventions {
		kinds = append(kinds, in.Kind)
	}
	got := strings.Join(kinds, " ")
	if !strings.HasPrefix(got, "reread") || !strings.HasSuffix(got, "halt") {
		t.Errorf("interventions = %q, want reread first and halt last", got)
	}
}

// A checkpoint answered by more tool calls, with no text, is unanswered
// at once; the task's final answer is not its reply (issue 32: the card
// waited, then showed the final answer).
func TestCheckpointAnsweredByCallsIsUnanswered(t *testing.T) {
	rounds := distinctCalls(3)
	rounds = append(rounds[:3], llmtest.ToolRound(call("z", "echo", `{"path":"z"}`)), llmtest.TextRound("All done."))
	s, _ := newSession(t, llmtest.Rounds(rounds...), func(o *Options) { o.Discipline.ReflectionCadence = 3 })
	evs, st := runTask(t, context.Background(), s, "go")
	if ans := eventsOf[InterventionAnswered](evs); len(ans) != 0 {
		t.Fatalf("the final answer was attached to the checkpoint: %+v", ans)
	}
	un := eventsOf[ReflectionRecorded](evs)
	if len(un) != 1 || un[0].Status != ReflectionUnanswered || un[0].Seq != st.Summary.Interventions[0].Seq {
		t.Fatalf("the checkpoint was not settled as unanswered: %+v", un)
	}
	if in := st.Summary.Interventions; len(in) != 1 || in[0].Reply != "" {
		t.Errorf("summary interventions = %+v", in)
	}
}
