package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
)

// One scripted session per seed document (shared/seeds/000 to 004), each
// showing that seed's behaviour end to end through the real binary and
// the fake server. docs/SEEDS.md maps each seed's requirements to code and
// tests, these included.

// lastUserMessage is the last user message the model received before
// request n (0-based).
func lastUserMessage(srv *llmtest.Server, n int) string {
	msgs := srv.Requests()[n].Messages
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			return msgs[i].Content
		}
	}
	return ""
}

// Seed 000, planning and reflection: a plan for the goal with its success
// criteria and strategy; periodic reflection whose adjustment keel acts
// on; a failed plan backtracks with attempt+1 and the other meta-strategy
// (explore first / act first, alternating); after max_backtrack_attempts
// (3) the goal fails.
func TestSeed000PlanningAndReflection(t *testing.T) {
	plan := func(attempt int, strategy, status string) llmtest.Round {
		return planRound(fmt.Sprintf(`{"goal":"make the build pass","success_criteria":["go build ./... succeeds"],"strategy":%q,"steps":[{"id":"a%d","title":"approach %d","status":%q,"note":"still broken"}]}`, strategy, attempt, attempt, status))
	}
	srv := llmtest.Start(t, llmtest.Rounds(
		plan(0, "read the errors", "active"),
		globRound("*.go"), // the checkpoint falls after the 2nd call
		llmtest.ToolRound(llmtest.Call{Name: "reflect", Args: reflectArgs("replan", "")}),
		plan(1, "try the smallest change", "active"),
		plan(1, "try the smallest change", "failed"),
		plan(2, "bisect the dependencies", "active"),
		plan(2, "bisect the dependencies", "failed"),
		llmtest.TextRound("never reached"),
	))
	home, dir := t.TempDir(), project(t)
	out, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "make the build pass", "--output-format", "json", "--reflection-cadence", "2")
	r := parseResult(t, out)
	if code != 3 || r.StopReason != "plan_failed" || r.Plan == nil || r.Plan.Status != "failed" || r.Plan.Attempt != 2 {
		t.Fatalf("exit %d, %s, plan %+v; stderr %s", code, r.StopReason, r.Plan, errOut)
	}
	// the reflection's replan backtracked: attempt 1, act first; the next
	// failure: attempt 2, explore first.
	for n, want := range map[int]string{3: "Replanning, attempt 1", 5: "Replanning, attempt 2"} {
		msg := lastUserMessage(srv, n)
		strategy := map[int]string{3: "act first", 5: "explore first"}[n]
		if !strings.Contains(msg, want) || !strings.Contains(msg, "Strategy for this attempt: "+strategy) {
			t.Errorf("request %d: %q", n, msg)
		}
	}
	if !strings.Contains(lastUserMessage(srv, 5), "strategy") {
		t.Errorf("no strategy named")
	}
	show, _, _ := runKeelHome(t, home, nil, dir, "", "log", "show", r.SessionID)
	for _, want := range []string{"reflect  checkpoint of round 2: replan, confidence 0.35", "attempt 1, active", "attempt 2, failed", "replanning"} {
		if !strings.Contains(show, want) {
			t.Errorf("keel log show lacks %q:\n%s", want, show)
		}
	}
}

// Seed 001, cadence reflection: a checkpoint every N tool calls,
// language-neutral, naming the calls since the last one and asking to
// restate the task, what was ruled out and the next concrete output; the
// flag overrides the config, 0 disables it, and a new task counts from
// zero.
func TestSeed001CadenceReflection(t *testing.T) {
	four := []llmtest.Round{globRound("a*"), globRound("b*"), globRound("c*"), globRound("d*"), llmtest.TextRound("done")}
	t.Run("every N calls, flag over config", func(t *testing.T) {
		reply := "Task: look. Ruled out a*, b*, c*; next output: the d* list."
		answered := llmtest.Round{Text: reply, ToolCalls: globRound("d*").ToolCalls}
		srv := llmtest.Start(t, llmtest.Rounds(four[0], four[1], four[2], answered, four[4]))
		home := t.TempDir()
		withConfig(t, home, "reflection_cadence = 10\nreflection_structured = false\n")
		out, errOut, code := runKeelHome(t, home, srv, project(t), "", "-p", "look", "--output-format", "json", "--reflection-cadence", "3")
		r := parseResult(t, out)
		if code != 0 || len(r.Interventions) != 1 || r.Interventions[0].Kind != "reflection" {
			t.Fatalf("exit %d, %+v; %s", code, r.Interventions, errOut)
		}
		cp := lastUserMessage(srv, 3)
		for _, want := range []string{"[Checkpoint:", "In the last 3 tool calls", "Restate the original task", "prove or rule out", "next concrete output"} {
			if !strings.Contains(cp, want) {
				t.Errorf("checkpoint lacks %q: %q", want, cp)
			}
		}
		for _, word := range []string{"cargo", "grep", "npm", "error", "blocked"} {
			if strings.Contains(strings.ToLower(cp), word) {
				t.Errorf("checkpoint says %q: %q", word, cp)
			}
		}
		if r.Interventions[0].Reply != reply { // the text of the round after the checkpoint
			t.Errorf("free text: the model's reply to the checkpoint is the answer: %q", r.Interventions[0].Reply)
		}
	})
	t.Run("0 disables", func(t *testing.T) {
		srv := llmtest.Start(t, llmtest.Rounds(four...))
		out, _, _ := runKeel(t, srv, project(t), "", "-p", "look", "--output-format", "json", "--reflection-cadence", "0")
		if r := parseResult(t, out); len(r.Interventions) != 0 {
			t.Errorf("checkpoints with cadence 0: %+v", r.Interventions)
		}
	})
	t.Run("a new task counts from zero", func(t *testing.T) {
		srv := llmtest.Start(t, llmtest.Rounds(globRound("a*"), globRound("b*"), llmtest.TextRound("first"), globRound("c*"), llmtest.TextRound("second")))
		home, dir := t.TempDir(), project(t)
		runKeelHome(t, home, srv, dir, "", "-p", "one", "--reflection-cadence", "3")
		out, _, _ := runKeelHome(t, home, srv, dir, "", "-c", "-p", "two", "--output-format", "json", "--reflection-cadence", "3")
		if r := parseResult(t, out); len(r.Interventions) != 0 {
			t.Errorf("task two's third call overall fired a checkpoint: %+v", r.Interventions)
		}
	})
}

// Seed 002, the OODA loop's memory and goals: a goal stalled beyond its
// threshold is decomposed; working memory is bounded with eviction;
// a finished task is consolidated into episodic memory, recalled for the
// next task; the session persists and resumes with its notes.
func TestSeed002MemoryAndDecomposition(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Rounds(
		planRound(`{"goal":"find why the greeting is wrong","success_criteria":"the cause is named","strategy":"search","steps":[{"id":"look","title":"look for the greeting","status":"active"}]}`),
		noteRound(`{"action":"pin","text":"main.go prints nothing"}`),
		noteRound(`{"action":"pin","text":"README says demo"}`),
		globRound("*.txt"), // 4th call on the step: decomposition asked
		planRound(`{"goal":"find why the greeting is wrong","strategy":"search","steps":[{"id":"look","title":"look for the greeting","status":"active"},{"id":"l1","title":"read main.go","status":"completed","parent":"look"},{"id":"l2","title":"read README","status":"active","parent":"look"}]}`),
		noteRound(`{"action":"pin","text":"there is no greeting at all"}`), // evicts n1
		planRound(`{"goal":"find why the greeting is wrong","strategy":"search","steps":[{"id":"look","title":"look for the greeting","status":"completed"},{"id":"l1","title":"read main.go","status":"completed","parent":"look"},{"id":"l2","title":"read README","status":"completed","parent":"look"}]}`),
		llmtest.TextRound("There is no greeting: main.go prints nothing."),
		// the next session of the project
		llmtest.TextRound("The earlier lesson says main.go prints nothing."),
	))
	home, dir := t.TempDir(), project(t)
	withConfig(t, home, "[memory]\nnotes_max = 2\n[discipline]\ndecompose_calls = 4\n")
	out, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "why is the greeting wrong?", "--output-format", "json")
	r := parseResult(t, out)
	if code != 0 || r.StopReason != "completed" || len(r.Interventions) != 1 || r.Interventions[0].Kind != "decompose" {
		t.Fatalf("exit %d, %s, %+v; stderr %s", code, r.StopReason, r.Interventions, errOut)
	}
	if !strings.Contains(resultsOf(srv, "note"), "the least recently used note n1") {
		t.Errorf("no eviction: %s", resultsOf(srv, "note"))
	}
	_, errOut, _ = runKeelHome(t, home, srv, dir, "", "-p", "the greeting again: why?")
	note := lastUserMessage(srv, len(srv.Requests())-1)
	if !strings.Contains(note, "Lessons from earlier tasks") || !strings.Contains(note, "why is the greeting wrong") || !strings.Contains(errOut, "lesson(s) from earlier tasks offered") {
		t.Errorf("lesson not offered: %q\n%s", note, errOut)
	}
}

// Seed 003, ReAct with planning: a plan with dependencies, can-fail steps,
// fallbacks, side effects and risks; a plan with side effects is confirmed
// first (headless with no rule: refused); the engine keeps the order and
// runs a fallback; errors recover (a rate limit waits and retries, a
// failing provider falls back to the next); a denied permission is
// reported, not retried; the results are synthesized in an answer.
func TestSeed003ReActWithPlanning(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	plan := `{"goal":"add a NOTES file","success_criteria":["NOTES exists"],"strategy":"write it","steps":[
		{"id":"look","title":"look at the files","status":"%s","risks":["none"]},
		{"id":"fmt","title":"run a formatter","status":"%s","can_fail":true,"depends_on":["look"]},
		{"id":"write","title":"write NOTES","status":"%s","side_effects":true,"depends_on":["look"],"fallback":"ask"},
		{"id":"ask","title":"ask the user to write it","status":"%s"}]}`
	rounds := func() []llmtest.Round {
		return []llmtest.Round{
			planRound(fmt.Sprintf(plan, "active", "pending", "pending", "pending")),
			llmtest.RateLimitRound("1"), // waits and retries the same request
			globRound("*"),
			planRound(fmt.Sprintf(plan, "completed", "active", "pending", "pending")),
			llmtest.ToolRound(llmtest.Call{Name: "run_command", Args: `{"command":"gofmt -l . > /dev/null; rm -rf /tmp/x"}`}), // denied: reported
			planRound(fmt.Sprintf(plan, "completed", "failed", "active", "pending")),
			llmtest.ToolRound(llmtest.Call{Name: "write_file", Args: `{"path":"NOTES.md","content":"notes"}`}),
			planRound(fmt.Sprintf(plan, "completed", "failed", "completed", "pending")),
			llmtest.TextRound("NOTES is written; the formatter could not run (denied), which the plan allowed."),
		}
	}
	t.Run("confirmation refused headless", func(t *testing.T) {
		srv := llmtest.Start(t, llmtest.Rounds(rounds()...))
		out, _, code := runKeel(t, srv, project(t), "", "-p", "add NOTES", "--output-format", "json", "--confirm-plan")
		if r := parseResult(t, out); code != 3 || r.Subtype != "error_plan_unconfirmed" {
			t.Fatalf("exit %d, %+v", code, r)
		}
	})
	t.Run("the plan runs", func(t *testing.T) {
		// one script served by two providers: openai fails its first four
		// attempts (the first request and its three retries), so keel falls
		// back to backup; later requests go to openai again.
		script := rounds()
		var next atomic.Int32
		serve := func(llmtest.RecordedRequest, int) llmtest.Round {
			i := int(next.Add(1)) - 1
			if i >= len(script) {
				return llmtest.ErrorRound(400, "the script is over")
			}
			return script[i]
		}
		bad := llmtest.Start(t, llmtest.Script{Handler: func(rec llmtest.RecordedRequest, n int) llmtest.Round {
			if n < 4 {
				return llmtest.ErrorRound(503, "down")
			}
			return serve(rec, n)
		}})
		srv := llmtest.Start(t, llmtest.Script{Handler: serve})
		home, dir := t.TempDir(), project(t)
		withConfig(t, home, fmt.Sprintf("[providers.openai]\nbase_url = %q\nfallback = [\"backup\"]\n[providers.backup]\nbase_url = %q\napi_key_env = \"OPENAI_API_KEY\"\nmodel = \"m\"\n", bad.URL(), srv.URL()))
		out, errOut, code := runKeelHome(t, home, nil, dir, "", "-p", "add NOTES", "--output-format", "json", "--allow", "write_file")
		r := parseResult(t, out)
		if code != 0 || r.StopReason != "completed" || !strings.HasPrefix(r.Result, "NOTES is written") {
			t.Fatalf("exit %d, %+v; stderr %s", code, r, errOut)
		}
		// round 1 fell back from openai to backup after its retries; round 2
		// waited out a rate limit and retried
		show, _, _ := runKeelHome(t, home, nil, dir, "", "log", "show", r.SessionID)
		if !strings.Contains(show, "finish tool_calls  retries 4\n") || !strings.Contains(show, "finish tool_calls  retries 1\n") || strings.Count(show, "retries") != 2 {
			t.Errorf("keel log show lacks the retries:\n%s", show)
		}
		if said := resultsOf(bad, "run_command"); !strings.Contains(said, "permission denied") {
			t.Errorf("the denial was not reported to the model: %q", said)
		}
		said := resultsOf(bad, "update_plan")
		if !strings.Contains(said, "may fail (can_fail), so the plan goes on") {
			t.Errorf("update_plan: %s", said)
		}
		if _, err := readIfExists(dir, "NOTES.md"); err != nil {
			t.Errorf("NOTES not written: %v", err)
		}
	})
}

// Seed 004, the state machine: every transition logged and checked (the
// e2e suites assert none is invalid); a greeting goes recognizing_intent
// → synthesizing → done; the halting conditions (budget, max steps,
// timeout, safety) end in halted with a partial result; an unrecoverable
// provider failure ends in error.
func TestSeed004StateMachine(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	loop := []llmtest.Round{globRound("x"), globRound("x"), globRound("x"), globRound("x"), globRound("x"), llmtest.TextRound("never")}
	cases := []struct {
		name   string
		rounds []llmtest.Round
		args   []string
		code   int
		stop   string
		path   string // in keel log show's task line
	}{
		{"a greeting", []llmtest.Round{llmtest.TextRound("Hello!")}, nil, 0, "completed", "idle → recognizing_intent → synthesizing → done"},
		{"max steps", loop, []string{"--max-turns", "2"}, 3, "max_turns", "recognizing_intent → (executing → observing)×2 → halted"},
		{"budget", loop, []string{"--max-tool-calls", "1"}, 3, "max_tool_calls", "→ observing → halted"},
		{"safety: a loop guard", loop, nil, 3, "loop_detected", "→ halted"},
		{"timeout", []llmtest.Round{globRound("a"), {Hang: true}}, []string{"--max-duration", "2s"}, 3, "max_duration", "→ executing → halted"},
		{"unrecoverable failure", []llmtest.Round{llmtest.ErrorRound(401, "bad key")}, nil, 1, "provider_error", "idle → recognizing_intent → error"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.Start(t, llmtest.Rounds(c.rounds...))
			home, dir := t.TempDir(), project(t)
			out, errOut, code := runKeelHome(t, home, srv, dir, "", append([]string{"-p", "hi", "--output-format", "json"}, c.args...)...)
			r := parseResult(t, out)
			if code != c.code || r.StopReason != c.stop {
				t.Fatalf("exit %d, %s; stderr %s", code, r.StopReason, errOut)
			}
			show, _, _ := runKeelHome(t, home, nil, dir, "", "log", "show", r.SessionID, "--json")
			var d struct {
				Rounds []struct {
					Transitions []struct{ From, To, Detail string } `json:"transitions"`
				} `json:"rounds"`
			}
			if err := json.Unmarshal([]byte(show), &d); err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, rd := range d.Rounds {
				n += len(rd.Transitions)
			}
			text, _, _ := runKeelHome(t, home, nil, dir, "", "log", "show", r.SessionID)
			if n == 0 || !strings.Contains(text, c.path) || strings.Contains(text, "INTERNAL ERROR") {
				t.Errorf("%d transitions; keel log show:\n%s", n, text)
			}
		})
	}
}
