package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/tools"
)

func TestReflectionValidate(t *testing.T) {
	ok := Reflection{Progress: "p", Evidence: []string{"call_1"}, NextAction: "n", Confidence: 0.5, Adjustment: AdjustContinue}
	cases := []struct {
		name string
		edit func(*Reflection)
		want string
	}{
		{"valid", func(*Reflection) {}, ""},
		{"no progress", func(r *Reflection) { r.Progress = " " }, "progress is required"},
		{"no evidence", func(r *Reflection) { r.Evidence = []string{""} }, "evidence is required"},
		{"confidence above 1", func(r *Reflection) { r.Confidence = 1.5 }, "from 0 to 1"},
		{"confidence below 0", func(r *Reflection) { r.Confidence = -0.1 }, "from 0 to 1"},
		{"confidence NaN", func(r *Reflection) { r.Confidence = math.NaN() }, "from 0 to 1"},
		{"confidence 0 and 1 are fine", func(r *Reflection) { r.Confidence = 1 }, ""},
		{"unknown adjustment", func(r *Reflection) { r.Adjustment = "pivot" }, `adjustment "pivot" is unknown`},
		{"no next action", func(r *Reflection) { r.NextAction = "" }, "next_action is required"},
		{"stop needs no next action", func(r *Reflection) { r.Adjustment, r.NextAction, r.Summary = AdjustStop, "", "s" }, ""},
		{"stop needs a summary", func(r *Reflection) { r.Adjustment = AdjustStop }, "stop needs summary"},
		{"ask_user needs a question", func(r *Reflection) { r.Adjustment = AdjustAskUser }, "ask_user needs question"},
		{"decompose needs sub-steps", func(r *Reflection) { r.Adjustment = AdjustDecompose }, "decompose needs sub_steps"},
		{"decompose one sub-step", func(r *Reflection) { r.Adjustment, r.SubSteps = AdjustDecompose, []string{"a"} }, "decompose needs sub_steps"},
		{"decompose empty sub-step", func(r *Reflection) { r.Adjustment, r.SubSteps = AdjustDecompose, []string{"a", " "} }, "none empty"},
		{"decompose two", func(r *Reflection) { r.Adjustment, r.SubSteps = AdjustDecompose, []string{"a", "b"} }, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := ok
			r.Evidence = append([]string(nil), ok.Evidence...)
			c.edit(&r)
			got := r.Validate()
			if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
				t.Errorf("Validate() = %q, want %q", got, c.want)
			}
		})
	}
}

// reflectCall scripts a reflect call with the adjustment and extras.
func reflectCall(adjustment, extra string) llmtest.Call {
	return call("", ReflectToolName, fmt.Sprintf(`{"progress":"read the code","evidence":["call_1"],"blockers":["the test is flaky"],"next_action":"edit","confidence":0.4,"adjustment":%q%s}`, adjustment, extra))
}

// reflectSession is a session with structured checkpoints every 2 calls.
func reflectSession(t *testing.T, asker Asker, rounds ...llmtest.Round) (*Session, *llmtest.Server) {
	return newSession(t, llmtest.Rounds(rounds...), func(o *Options) {
		o.StructuredReflection = true
		o.Discipline.ReflectionCadence = 2
		o.Discipline.Set("stall_calls", 0)
		o.Discipline.Set("plan_continue", false)
		o.Asker = asker
	})
}

var echo = func(p string) llmtest.Round { return llmtest.ToolRound(call("", "echo", `{"path":"`+p+`"}`)) }

func TestCheckpointAsksForReflect(t *testing.T) {
	s, srv := reflectSession(t, nil, echo("a"), echo("b"), llmtest.ToolRound(reflectCall(AdjustContinue, "")), llmtest.TextRound("done"))
	evs, st := runTask(t, context.Background(), s, "go")
	if st.Reason != StopCompleted {
		t.Fatalf("stop %s", st.Reason)
	}
	msgs := srv.Requests()[2].Messages
	if cp := msgs[len(msgs)-1].Content; !strings.Contains(cp, "[Checkpoint") || !strings.Contains(cp, "reflect tool call") {
		t.Errorf("checkpoint message = %q", cp)
	}
	recs := eventsOf[ReflectionRecorded](evs)
	if len(recs) != 1 || recs[0].Status != ReflectionAnswered || recs[0].Reflection.Adjustment != AdjustContinue || recs[0].Seq == 0 {
		t.Fatalf("reflections = %+v", recs)
	}
	if len(st.Summary.Interventions) != 1 || !strings.Contains(st.Summary.Interventions[0].Reply, "adjustment continue") {
		t.Errorf("the card's reply = %+v", st.Summary.Interventions)
	}
	// reflecting lasted from the checkpoint to its answer
	var path []string
	for _, sc := range eventsOf[StateChanged](evs) {
		path = append(path, string(sc.To))
	}
	if got := strings.Join(path, " "); !strings.Contains(got, "observing reflecting observing executing") {
		t.Errorf("path %s", got)
	}
}

func TestUnansweredCheckpointIsRecorded(t *testing.T) {
	s, _ := reflectSession(t, nil, echo("a"), echo("b"), llmtest.Round{Text: "I will go on.", ToolCalls: []llmtest.Call{call("", "echo", `{"path":"c"}`)}}, llmtest.TextRound("done"))
	evs, st := runTask(t, context.Background(), s, "go")
	recs := eventsOf[ReflectionRecorded](evs)
	if st.Reason != StopCompleted || len(recs) != 1 || recs[0].Status != ReflectionUnanswered {
		t.Fatalf("stop %s, reflections %+v", st.Reason, recs)
	}
	if got := st.Summary.Interventions[0].Reply; got != UnansweredReply+"; the model wrote: I will go on." {
		t.Errorf("the card's reply = %q", got)
	}
	found := false
	for _, sc := range eventsOf[StateChanged](evs) {
		if sc.From == StateReflecting && sc.To == StateExecuting && sc.Detail == "checkpoint unanswered" {
			found = true
		}
	}
	if !found {
		t.Errorf("no reflecting → executing (checkpoint unanswered) transition")
	}
}

func TestReflectionAdjustments(t *testing.T) {
	plan := planJSON(`{"goal":"g","strategy":"first","steps":[{"id":"s","title":"fix it","status":"active"},{"id":"t","title":"test","status":"pending"}]}`)
	cases := []struct {
		name   string
		asker  Asker
		rounds []llmtest.Round
		stop   StopReason
		result string
		check  func(t *testing.T, st TaskStopped, srv *llmtest.Server)
	}{
		{"replan supersedes the plan and replans", nil,
			[]llmtest.Round{plan, echo("a"), llmtest.ToolRound(reflectCall(AdjustReplan, "")),
				planJSON(`{"goal":"g","strategy":"second","steps":[{"title":"other","status":"completed"}]}`), llmtest.TextRound("done")},
			StopCompleted, "done", func(t *testing.T, st TaskStopped, srv *llmtest.Server) {
				if st.Summary.Plan.Attempt != 1 || !replanSent(srv) {
					t.Errorf("attempt %d, replanned %v", st.Summary.Plan.Attempt, replanSent(srv))
				}
			}},
		{"decompose gives the active step sub-steps", nil,
			[]llmtest.Round{plan, echo("a"), llmtest.ToolRound(reflectCall(AdjustDecompose, `,"sub_steps":["find the line","change it"]`)), llmtest.TextRound("stop")},
			StopCompleted, "stop", func(t *testing.T, st TaskStopped, _ *llmtest.Server) {
				p := st.Summary.Plan
				if len(p.Steps) != 4 || p.Steps[1].ID != "s.1" || p.Steps[1].Parent != "s" || p.Steps[1].Status != StepActive || p.Steps[2].Title != "change it" {
					t.Errorf("plan %+v", p.Steps)
				}
			}},
		{"ask_user headless stops with needs_user", nil,
			[]llmtest.Round{echo("a"), echo("b"), llmtest.ToolRound(reflectCall(AdjustAskUser, `,"question":"which port?"`)), llmtest.TextRound("never")},
			StopNeedsUser, "which port?", nil},
		{"ask_user with a user sends the answer", &fakeAsker{answer: GuardAnswer{Continue: true, Guidance: "port 8080"}},
			[]llmtest.Round{echo("a"), echo("b"), llmtest.ToolRound(reflectCall(AdjustAskUser, `,"question":"which port?"`)), llmtest.TextRound("ok")},
			StopCompleted, "ok", func(t *testing.T, _ TaskStopped, srv *llmtest.Server) {
				msgs := srv.Requests()[3].Messages
				if got := msgs[len(msgs)-1].Content; !strings.Contains(got, "port 8080") {
					t.Errorf("last message %q", got)
				}
			}},
		{"stop ends with the summary as a partial result", nil,
			[]llmtest.Round{echo("a"), echo("b"), llmtest.ToolRound(reflectCall(AdjustStop, `,"summary":"half done: parser fixed, printer left"`)), llmtest.TextRound("never")},
			StopModelStopped, "half done: parser fixed, printer left", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, srv := reflectSession(t, c.asker, c.rounds...)
			_, st := runTask(t, context.Background(), s, "go")
			if st.Reason != c.stop || st.Result != c.result {
				t.Fatalf("stop %s (%s), result %q", st.Reason, st.Message, st.Result)
			}
			if c.check != nil {
				c.check(t, st, srv)
			}
		})
	}
}

func TestDecomposeRefusesASubStep(t *testing.T) {
	s, srv := reflectSession(t, nil,
		planJSON(`{"goal":"g","strategy":"x","steps":[{"id":"p","title":"p","status":"active"},{"id":"c","title":"c","status":"active","parent":"p"}]}`),
		llmtest.ToolRound(reflectCall(AdjustDecompose, `,"sub_steps":["x","y"]`)), llmtest.TextRound("ok"))
	runTask(t, context.Background(), s, "go")
	if got := lastTool(srv.Requests()[2].Messages).Content; !strings.Contains(got, "sub-steps go one level deep") {
		t.Errorf("reply = %q", got)
	}
}

// fakeAsker answers every question the same way.
type fakeAsker struct {
	answer GuardAnswer
	asked  []Intervention
}

func (f *fakeAsker) AskGuard(_ context.Context, in Intervention) (GuardAnswer, error) {
	f.asked = append(f.asked, in)
	return f.answer, nil
}

// The reflect tool's schema offers the adjustments as an enum.
func TestReflectSchema(t *testing.T) {
	s, _ := reflectSession(t, nil)
	for _, d := range s.toolDefs() {
		if d.Name != ReflectToolName {
			continue
		}
		var sch struct {
			Properties map[string]struct {
				Enum []string `json:"enum"`
			} `json:"properties"`
			Required []string `json:"required"`
		}
		if err := json.Unmarshal(d.Parameters, &sch); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(sch.Properties["adjustment"].Enum, ","); got != "continue,replan,decompose,ask_user,stop" {
			t.Errorf("adjustment enum = %s", got)
		}
		return
	}
	t.Fatal("no reflect tool offered")
}

// /reflect asks for a checkpoint after the round in flight, whatever the
// cadence; with no task running it says so.
func TestReflectForcesACheckpoint(t *testing.T) {
	started := make(chan struct{})
	release := make(chan struct{})
	gate := &fakeTool{name: "gate", class: tools.ReadOnly, run: func(ctx context.Context, _ json.RawMessage) (tools.Result, error) {
		close(started)
		<-release
		return tools.Result{Output: "done"}, nil
	}}
	s, srv := newSession(t, llmtest.Rounds(llmtest.ToolRound(call("", "gate", `{}`)), llmtest.ToolRound(reflectCall(AdjustContinue, "")), llmtest.TextRound("ok")), func(o *Options) {
		o.Tools = append(o.Tools, gate)
		o.StructuredReflection = true
	})
	if err := s.Reflect(); err != ErrNoTask {
		t.Fatalf("Reflect with no task: %v", err)
	}
	if err := s.Submit(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	await(t, started, "the tool to start")
	if err := s.Reflect(); err != nil {
		t.Fatal(err)
	}
	close(release)
	evs, st := collect(t, s)
	fired := eventsOf[InterventionFired](evs)
	if st.Reason != StopCompleted || len(fired) != 1 || !strings.Contains(fired[0].Intervention.Why, "/reflect") {
		t.Fatalf("stop %s, fired %+v", st.Reason, fired)
	}
	msgs := srv.Requests()[1].Messages
	if got := msgs[len(msgs)-1].Content; !strings.Contains(got, "[Checkpoint") || !strings.Contains(got, "reflect tool call") {
		t.Errorf("the request after /reflect ends with %q", got)
	}
	if recs := eventsOf[ReflectionRecorded](evs); len(recs) != 1 || recs[0].Status != ReflectionAnswered {
		t.Errorf("reflections %+v", recs)
	}
}
