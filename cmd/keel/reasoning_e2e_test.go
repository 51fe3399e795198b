package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
)

// The reasoning loop's rules through the real binary against the fake
// server: plans, reflection, decomposition, working and episodic memory,
// limits and confirmation (issue 28).

// result is the part of keel -p's JSON result these tests read.
type result struct {
	Subtype       string `json:"subtype"`
	StopReason    string `json:"stop_reason"`
	Result        string `json:"result"`
	SessionID     string `json:"session_id"`
	Interventions []struct {
		Kind  string `json:"kind"`
		Why   string `json:"why"`
		Reply string `json:"reply"`
	} `json:"interventions"`
	Plan *struct {
		Status  string `json:"status"`
		Attempt int    `json:"attempt"`
		Steps   []struct {
			ID     string `json:"id"`
			Title  string `json:"title"`
			Status string `json:"status"`
			Parent string `json:"parent"`
		} `json:"steps"`
	} `json:"plan"`
}

func parseResult(t *testing.T, out string) result {
	t.Helper()
	var r result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	return r
}

// withConfig writes the user's config.toml under home.
func withConfig(t *testing.T, home, toml string) {
	t.Helper()
	p := filepath.Join(home, "config", "keel", "config.toml")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
}

func planRound(args string) llmtest.Round {
	return llmtest.ToolRound(llmtest.Call{Name: "update_plan", Args: args})
}

func globRound(p string) llmtest.Round {
	return llmtest.ToolRound(llmtest.Call{Name: "glob", Args: `{"pattern":"` + p + `"}`})
}

// resultsOf are the contents of the tool messages for calls to name in
// the last request (which carries the whole history), in order.
func resultsOf(srv *llmtest.Server, name string) string {
	reqs := srv.Requests()
	var out []string
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == "tool" && m.Name == name {
			out = append(out, m.Content)
		}
	}
	return strings.Join(out, "\n")
}

// TestPlanRulesThroughTheBinary: validation, order, can_fail, fallback and
// the replan that must differ, each as the model sees it.
func TestPlanRulesThroughTheBinary(t *testing.T) {
	cases := []struct {
		name    string
		rounds  []llmtest.Round
		stop    string
		attempt int
		says    []string // in update_plan's results
		noSay   string
	}{
		{"unknown dependency, cycle and bad fallback are tool errors", []llmtest.Round{
			planRound(`{"goal":"g","steps":[{"id":"a","title":"a","status":"active","depends_on":["zz"]}]}`),
			planRound(`{"goal":"g","steps":[{"id":"a","title":"a","status":"pending","depends_on":["b"]},{"id":"b","title":"b","status":"pending","depends_on":["a"]}]}`),
			planRound(`{"goal":"g","steps":[{"id":"a","title":"a","status":"active","fallback":"nope"}]}`),
			llmtest.TextRound("giving up on plans")},
			"completed", 0, []string{`depends on "zz", which is not a step of the plan`, "the dependencies form a cycle (a → b → a)", "a fallback must be a step of the plan"}, ""},
		{"order is enforced", []llmtest.Round{
			planRound(`{"goal":"g","steps":[{"id":"read","title":"read","status":"pending"},{"id":"edit","title":"edit","status":"active","depends_on":["read"]}]}`),
			planRound(`{"goal":"g","steps":[{"id":"read","title":"read","status":"completed"},{"id":"edit","title":"edit","status":"completed","depends_on":["read"]}]}`),
			llmtest.TextRound("done")},
			"completed", 0, []string{`step "edit" (id edit) cannot be active before its dependencies are done: "read" (id read), pending`}, ""},
		{"a failed can_fail step does not replan; a fallback runs first", []llmtest.Round{
			planRound(`{"goal":"g","strategy":"s","steps":[{"id":"lint","title":"lint","status":"active","can_fail":true},{"id":"patch","title":"patch","status":"pending","fallback":"rewrite"},{"id":"rewrite","title":"rewrite","status":"pending"}]}`),
			planRound(`{"goal":"g","strategy":"s","steps":[{"id":"lint","title":"lint","status":"failed","can_fail":true},{"id":"patch","title":"patch","status":"active","fallback":"rewrite"},{"id":"rewrite","title":"rewrite","status":"pending"}]}`),
			planRound(`{"goal":"g","strategy":"s","steps":[{"id":"lint","title":"lint","status":"failed","can_fail":true},{"id":"patch","title":"patch","status":"failed","fallback":"rewrite"},{"id":"rewrite","title":"rewrite","status":"pending"}]}`),
			planRound(`{"goal":"g","strategy":"s","steps":[{"id":"lint","title":"lint","status":"failed","can_fail":true},{"id":"patch","title":"patch","status":"failed","fallback":"rewrite"},{"id":"rewrite","title":"rewrite","status":"completed"}]}`),
			llmtest.TextRound("done")},
			"completed", 0, []string{"may fail (can_fail), so the plan goes on without replanning", `keel activated its fallback "rewrite"`}, "superseded"},
		{"a replan repeating a failed attempt is refused", []llmtest.Round{
			planRound(`{"goal":"g","strategy":"search","steps":[{"title":"grep","status":"failed","note":"no hits"}]}`),
			planRound(`{"goal":"g","strategy":"search","steps":[{"title":"grep harder","status":"active"}]}`),
			planRound(`{"goal":"g","strategy":"read the tests","steps":[{"title":"grep","status":"active"}]}`),
			planRound(`{"goal":"g","strategy":"read the tests","steps":[{"title":"read tests","status":"completed"}]}`),
			llmtest.TextRound("found")},
			"completed", 1, []string{`strategy "search" is the one of attempt 0, which failed`, "these steps are the steps of attempt 0, which failed"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.Start(t, llmtest.Rounds(c.rounds...))
			out, errOut, code := runKeel(t, srv, project(t), "", "-p", "plan it", "--output-format", "json")
			r := parseResult(t, out)
			if code != 0 || r.StopReason != c.stop {
				t.Fatalf("exit %d, stop %s; stderr %s", code, r.StopReason, errOut)
			}
			if r.Plan != nil && r.Plan.Attempt != c.attempt {
				t.Errorf("attempt %d, want %d", r.Plan.Attempt, c.attempt)
			}
			said := resultsOf(srv, "update_plan")
			for _, want := range c.says {
				if !strings.Contains(said, want) {
					t.Errorf("update_plan never said %q:\n%s", want, said)
				}
			}
			if c.noSay != "" && strings.Contains(said, c.noSay) {
				t.Errorf("update_plan said %q:\n%s", c.noSay, said)
			}
		})
	}
}

func reflectArgs(adjustment, extra string) string {
	return `{"progress":"globbed twice","evidence":["call_1","call_2"],"blockers":["nothing matches"],"next_action":"read main.go","confidence":0.35,"adjustment":"` + adjustment + `"` + extra + `}`
}

// TestReflectionThroughTheBinary: a checkpoint asks for reflect; keel acts
// on the adjustment; an unanswered one is counted by keel log stats.
func TestReflectionThroughTheBinary(t *testing.T) {
	reflect := func(adj, extra string) llmtest.Round {
		return llmtest.ToolRound(llmtest.Call{Name: "reflect", Args: reflectArgs(adj, extra)})
	}
	cases := []struct {
		name              string
		answer            llmtest.Round
		code              int
		subtype, stop     string
		result            string
		answered, missing int
	}{
		{"continue", reflect("continue", ""), 0, "success", "completed", "done", 1, 0},
		{"stop gives the summary as a partial result", reflect("stop", `,"summary":"half done: nothing to read"`), 3, "error_during_execution", "model_stopped", "half done: nothing to read", 1, 0},
		{"ask_user headless has its own subtype", reflect("ask_user", `,"question":"which file?"`), 3, "error_needs_user", "needs_user", "which file?", 1, 0},
		{"unanswered is recorded", globRound("*.md"), 0, "success", "completed", "done", 0, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.Start(t, llmtest.Rounds(globRound("*.go"), globRound("*.txt"), c.answer, llmtest.TextRound("done")))
			home, dir := t.TempDir(), project(t)
			out, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "look around", "--output-format", "json", "--reflection-cadence", "2")
			r := parseResult(t, out)
			if code != c.code || r.Subtype != c.subtype || r.StopReason != c.stop || r.Result != c.result {
				t.Fatalf("exit %d, %s/%s, result %q; stderr %s", code, r.Subtype, r.StopReason, r.Result, errOut)
			}
			msgs := srv.Requests()[2].Messages
			if cp := msgs[len(msgs)-1].Content; !strings.Contains(cp, "reflect tool call") {
				t.Errorf("the checkpoint does not ask for reflect: %q", cp)
			}
			if c.answered == 1 && (len(r.Interventions) != 1 || !strings.Contains(r.Interventions[0].Reply, "confidence 0.35")) {
				t.Errorf("the card's reply: %+v", r.Interventions)
			}
			stats, _, _ := runKeelHome(t, home, nil, dir, "", "log", "stats", "--json")
			var st struct {
				Checkpoints struct {
					Fired, Answered, Unanswered int
				} `json:"checkpoints"`
			}
			if err := json.Unmarshal([]byte(stats), &st); err != nil {
				t.Fatalf("keel log stats --json: %v\n%s", err, stats)
			}
			if st.Checkpoints.Fired != 1 || st.Checkpoints.Answered != c.answered || st.Checkpoints.Unanswered != c.missing {
				t.Errorf("stats checkpoints %+v", st.Checkpoints)
			}
			text, _, _ := runKeelHome(t, home, nil, dir, "", "log", "stats")
			if !strings.Contains(text, "checkpoints: 1 fired") {
				t.Errorf("keel log stats lacks the checkpoint line:\n%s", text)
			}
		})
	}
}

// TestStatesAndPlanRevisionsInKeelLogShow: keel log show prints the task's
// path through the state machine on one line and what each plan revision
// changed.
func TestStatesAndPlanRevisionsInKeelLogShow(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Rounds(
		planRound(`{"goal":"list files","strategy":"glob","steps":[{"id":"g","title":"glob","status":"active"},{"id":"s","title":"say","status":"pending","depends_on":["g"]}]}`),
		globRound("*"),
		planRound(`{"goal":"list files","strategy":"glob","steps":[{"id":"g","title":"glob","status":"completed"},{"id":"s","title":"say","status":"completed","depends_on":["g"]}]}`),
		llmtest.TextRound("two files"),
	))
	home, dir := t.TempDir(), project(t)
	out, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "list", "--output-format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	r := parseResult(t, out)
	show, _, code := runKeelHome(t, home, nil, dir, "", "log", "show", r.SessionID)
	if code != 0 {
		t.Fatalf("keel log show exit %d", code)
	}
	for _, want := range []string{
		"task 1 states: idle → recognizing_intent → executing → planning → (observing → executing)×2 → planning → observing → executing → synthesizing → done",
		`plan  revision 1, attempt 0, active: goal "list files"; strategy "glob"; + g "glob" [active]; + s "say" [pending] (after g)`,
		`plan  revision 2, attempt 0, completed: g "glob": active → completed; s "say": pending → completed; plan active → completed`,
	} {
		if !strings.Contains(show, want) {
			t.Errorf("keel log show lacks\n%s\n---\n%s", want, show)
		}
	}
}
