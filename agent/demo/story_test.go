package demo

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/tools"
)

func TestStoryFixesTheBug(t *testing.T) {
	needGo(t)
	h := newHarness(t, 3, nil)
	evs, st := h.run(t, "hello")
	if st.Reason != agent.StopCompleted {
		t.Fatalf("stopped with %s: %s", st.Reason, st.Message)
	}
	want := []string{"update_plan:ok", "list_dir:ok", "read_file:ok", "read_file:ok",
		"update_plan:ok", "run_command:error", "update_plan:ok", "edit_file:ok", "run_command:ok", "update_plan:ok"}
	if got := h.toolLines(evs); !slices.Equal(got, want) {
		t.Errorf("tool calls:\n got %v\nwant %v", got, want)
	}
	assertPlanDone(t, st.Summary.Plan, "completed", "completed", "completed", "completed")
	if !strings.Contains(readFile(t, h.dir, codeFile), fixedLine) {
		t.Errorf("%s was not fixed", codeFile)
	}
	if ok, out := goTest(t, h.dir); !ok {
		t.Errorf("go test fails after the story:\n%s", out)
	}
	if !strings.Contains(st.Result, "now passes") {
		t.Errorf("final answer: %q", st.Result)
	}
	if len(eventsOf[agent.ReasoningDelta](evs)) == 0 {
		t.Error("no reasoning was streamed")
	}
}

func TestCheckpointIsAnswered(t *testing.T) {
	needGo(t)
	for _, structured := range []bool{true, false} {
		t.Run(fmt.Sprintf("structured %v", structured), func(t *testing.T) {
			h := newHarness(t, 3, func(o *agent.Options, _ *tools.Workspace) { o.StructuredReflection = structured })
			evs, st := h.run(t, "fix it")
			if st.Reason != agent.StopCompleted {
				t.Fatalf("stopped with %s: %s", st.Reason, st.Message)
			}
			ins := st.Summary.Interventions
			// Cadence 3 over ten calls: after the rounds crossing 3, 6 and 9
			// (reflect calls, which answer checkpoints, are not counted).
			if kinds(ins) != "reflection,reflection,reflection" || ins[0].AtToolCall != 4 || ins[1].AtToolCall != 6 || ins[2].AtToolCall != 9 {
				t.Fatalf("interventions %q at %d, %d, %d; want three reflections at 4, 6, 9 and nothing else", kinds(ins), ins[0].AtToolCall, ins[1].AtToolCall, ins[2].AtToolCall)
			}
			if !strings.Contains(ins[0].Message, checkpointMark) {
				t.Errorf("first checkpoint: %q", ins[0].Message)
			}
			for _, in := range ins {
				ok := strings.HasPrefix(in.Reply, "1. The task:") && strings.Contains(in.Reply, "3. Next output:")
				if structured {
					ok = strings.HasPrefix(in.Reply, "progress: ") && strings.Contains(in.Reply, "adjustment continue")
				}
				if !ok {
					t.Errorf("checkpoint %d reply: %q", in.Seq, in.Reply)
				}
			}
			if n := len(eventsOf[agent.InterventionAnswered](evs)); n != 3 {
				t.Errorf("%d InterventionAnswered events, want 3", n)
			}
			// The request after the checkpoint carried it: the history shows it
			// right before the answer.
			hist := h.s.History()
			for i, m := range hist {
				if !strings.Contains(m.Content, checkpointMark) {
					continue
				}
				next := llm.Message{}
				if i+1 < len(hist) {
					next = hist[i+1]
				}
				answered := strings.HasPrefix(next.Content, "1. The task:")
				if structured {
					answered = len(next.ToolCalls) > 0 && next.ToolCalls[0].Name == agent.ReflectToolName
				}
				if !answered {
					t.Errorf("message %d is a checkpoint not answered next", i)
				}
			}
		})
	}
}

func TestStoryAtAnyCadence(t *testing.T) {
	needGo(t)
	for _, cadence := range []int{0, 1, 4} {
		t.Run(fmt.Sprintf("cadence %d", cadence), func(t *testing.T) {
			h := newHarness(t, cadence, nil)
			_, st := h.run(t, "go")
			if st.Reason != agent.StopCompleted {
				t.Fatalf("cadence %d: stopped with %s: %s", cadence, st.Reason, st.Message)
			}
			assertPlanDone(t, st.Summary.Plan, "completed", "completed", "completed", "completed")
			for _, in := range st.Summary.Interventions {
				if in.Kind != "reflection" || in.Reply == "" {
					t.Errorf("cadence %d: unexpected or unanswered intervention %+v", cadence, in)
				}
			}
			if cadence == 0 && len(st.Summary.Interventions) > 0 {
				t.Errorf("cadence 0 fired %s", kinds(st.Summary.Interventions))
			}
		})
	}
}

func TestDeniedEditEndsPolitely(t *testing.T) {
	tests := []struct {
		name     string
		gate     gateFunc
		calls    []string
		testStep string // how step 2 (run the tests) ends
	}{
		{"deny everything", func(agent.PermissionRequest) agent.PermissionReply {
			return agent.PermissionReply{Reason: "not now"}
		}, []string{"update_plan:ok", "list_dir:ok", "read_file:ok", "read_file:ok",
			"update_plan:ok", "run_command:denied", "update_plan:ok", "edit_file:denied", "update_plan:ok"}, "skipped"},
		{"deny the edit only", denyEdits, []string{"update_plan:ok", "list_dir:ok", "read_file:ok", "read_file:ok",
			"update_plan:ok", "run_command:error", "update_plan:ok", "edit_file:denied", "update_plan:ok"}, "completed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.testStep == "completed" {
				needGo(t)
			}
			h := newHarness(t, 3, withPolicy(tt.gate))
			evs, st := h.run(t, "fix the test")
			if st.Reason != agent.StopCompleted {
				t.Fatalf("stopped with %s: %s", st.Reason, st.Message)
			}
			if got := h.toolLines(evs); !slices.Equal(got, tt.calls) {
				t.Errorf("tool calls:\n got %v\nwant %v", got, tt.calls)
			}
			assertPlanDone(t, st.Summary.Plan, "completed", tt.testStep, "skipped", "skipped")
			// The answer comes after the reflection on the checkpoint due at call 9 (cadence 3).
			if !strings.HasPrefix(st.Result, "You declined the edit") {
				t.Errorf("final answer: %q", st.Result)
			}
			if strings.Contains(readFile(t, h.dir, codeFile), fixedLine) {
				t.Error("the file changed although the edit was denied")
			}
			for _, in := range st.Summary.Interventions {
				if in.Kind != "reflection" {
					t.Errorf("a denial set off %s: %s", in.Kind, in.Why)
				}
			}
		})
	}
}

func TestPromptAfterDenialRetriesTheEdit(t *testing.T) {
	needGo(t)
	allow := false
	h := newHarness(t, 3, withPolicy(func(req agent.PermissionRequest) agent.PermissionReply {
		if req.Tool == tools.NameEditFile && !allow {
			return agent.PermissionReply{Reason: "not yet"}
		}
		return agent.PermissionReply{Allow: true}
	}))
	if _, st := h.run(t, "fix it"); !strings.Contains(st.Result, "You declined the edit") {
		t.Fatalf("first task: %q", st.Result)
	}
	allow = true // no task runs now: the gate is not read concurrently
	evs, st := h.run(t, "ok, go ahead")
	want := []string{"update_plan:ok", "edit_file:ok", "run_command:ok", "update_plan:ok"}
	if got := h.toolLines(evs); !slices.Equal(got, want) {
		t.Errorf("tool calls:\n got %v\nwant %v", got, want)
	}
	assertPlanDone(t, st.Summary.Plan, "completed", "completed", "completed", "completed")
	if ok, out := goTest(t, h.dir); !ok {
		t.Errorf("go test fails after the retry:\n%s", out)
	}
}

func TestPromptAfterTheStory(t *testing.T) {
	needGo(t)
	h := newHarness(t, 3, nil)
	h.run(t, "first")
	evs, st := h.run(t, "and now?")
	if st.Reason != agent.StopCompleted || st.Result != demoOverText {
		t.Errorf("second task: %s %q", st.Reason, st.Result)
	}
	if n := len(eventsOf[agent.ToolFinished](evs)); n != 0 {
		t.Errorf("%d tool calls after the story ended", n)
	}
}

// withPolicy makes every side effect ask (no allow rules) and answers
// with gate.
func withPolicy(gate gateFunc) func(*agent.Options, *tools.Workspace) {
	return func(o *agent.Options, ws *tools.Workspace) {
		pol, err := tools.NewPolicy(ws, tools.PolicyOptions{})
		if err != nil {
			panic(err)
		}
		o.Permissions, o.Gate = pol, gate
	}
}

func denyEdits(req agent.PermissionRequest) agent.PermissionReply {
	if req.Tool == tools.NameEditFile {
		return agent.PermissionReply{Reason: "I'd rather fix it myself"}
	}
	return agent.PermissionReply{Allow: true}
}

func assertPlanDone(t *testing.T, p *agent.Plan, statuses ...string) {
	t.Helper()
	if p == nil {
		t.Fatal("no plan")
	}
	if p.Status != agent.PlanCompleted || p.Attempt != 0 {
		t.Errorf("plan status %s, attempt %d", p.Status, p.Attempt)
	}
	var got []string
	for _, s := range p.Steps {
		got = append(got, s.Status)
	}
	if !slices.Equal(got, statuses) {
		t.Errorf("step statuses %v, want %v", got, statuses)
	}
}

func TestStoryWithoutGo(t *testing.T) {
	h := newHarness(t, 3, func(o *agent.Options, ws *tools.Workspace) {
		// run_command's bash finds no go: the story fixes the bug unverified.
		for i, tool := range o.Tools {
			if tool.Name() == tools.NameRunCommand {
				o.Tools[i] = tools.New(ws, tools.Options{Env: []string{"PATH=/nonexistent"}})[i]
			}
		}
	})
	_, st := h.run(t, "fix")
	if st.Reason != agent.StopCompleted {
		t.Fatalf("stopped with %s: %s", st.Reason, st.Message)
	}
	assertPlanDone(t, st.Summary.Plan, "completed", "skipped", "completed", "skipped")
	if !strings.Contains(readFile(t, h.dir, codeFile), fixedLine) {
		t.Errorf("%s was not fixed", codeFile)
	}
	// keel's verify guard asks for a check; the demo says why none can run.
	if kinds(st.Summary.Interventions) != "reflection,reflection,reflection,verify" || !strings.HasPrefix(st.Result, "No check passed here") {
		t.Errorf("interventions %s, result %q", kinds(st.Summary.Interventions), st.Result)
	}
}

func TestCancelledStoryPicksUp(t *testing.T) {
	needGo(t)
	var h *harness
	cancelled := false
	h = newHarness(t, 3, withPolicy(func(req agent.PermissionRequest) agent.PermissionReply {
		if req.Tool == tools.NameEditFile && !cancelled {
			cancelled = true
			h.s.Cancel() // Esc while the permission dialog is open
			return agent.PermissionReply{}
		}
		return agent.PermissionReply{Allow: true}
	}))
	if _, st := h.run(t, "fix"); st.Reason != agent.StopCancelled {
		t.Fatalf("first task stopped with %s", st.Reason)
	}
	evs, st := h.run(t, "continue")
	if st.Reason != agent.StopCompleted {
		t.Fatalf("stopped with %s: %s", st.Reason, st.Message)
	}
	texts := ""
	for _, d := range eventsOf[agent.TextDelta](evs) {
		texts += d.Text
	}
	if !strings.HasPrefix(texts, "Picking up the demo where it stopped.") {
		t.Errorf("the story did not say it picks up: %q", texts)
	}
	want := []string{"update_plan:ok", "edit_file:ok", "run_command:ok", "update_plan:ok"}
	if got := h.toolLines(evs); !slices.Equal(got, want) {
		t.Errorf("tool calls:\n got %v\nwant %v", got, want)
	}
	assertPlanDone(t, st.Summary.Plan, "completed", "completed", "completed", "completed")
}

// confirmer asks for changes to the first plan it sees and approves the next.
type confirmer struct{ asked int }

func (c *confirmer) ConfirmPlan(context.Context, agent.Plan) (agent.PlanVerdict, error) {
	c.asked++
	if c.asked == 1 {
		return agent.PlanVerdict{Feedback: "run the tests first"}, nil
	}
	return agent.PlanVerdict{Approve: true}, nil
}

func TestPlanFeedbackKeepsTheStoryGoing(t *testing.T) {
	needGo(t)
	c := &confirmer{}
	h := newHarness(t, 3, func(o *agent.Options, _ *tools.Workspace) {
		o.ConfirmPlan, o.Confirmer = true, c
	})
	evs, st := h.run(t, "fix")
	if st.Reason != agent.StopCompleted || c.asked != 2 {
		t.Fatalf("stopped with %s (%s), asked %d times", st.Reason, st.Message, c.asked)
	}
	want := []string{"update_plan:ok", "list_dir:ok", "read_file:ok", "read_file:ok",
		"update_plan:ok", "run_command:error", "update_plan:ok", "run_command:error",
		"update_plan:ok", "edit_file:ok", "run_command:ok", "update_plan:ok"}
	if got := h.toolLines(evs); !slices.Equal(got, want) {
		t.Errorf("tool calls:\n got %v\nwant %v", got, want)
	}
	assertPlanDone(t, st.Summary.Plan, "completed", "completed", "completed", "completed")
}
