package discipline

import (
	"strings"
	"testing"
)

// ecosystemWords must never appear in the checkpoint's own text.
var ecosystemWords = []string{"cargo", "grep", "npm", "go test", "pytest", "python", "rust", "golang", "make test", "makefile", "git ", "node"}

func samplePrompt(delta int) string {
	act := Activity{Calls: delta, Reads: 6, FilesRead: []string{"/w/src/a.txt", "/w/src/b.txt"}, Edits: 1, FilesChanged: []string{"/w/src/a.txt"}, Commands: 2, CommandsFailed: 1, Failed: 1}
	plan := PlanView{Goal: "g", Steps: []PlanStep{{"survey", StepCompleted}, {"change", StepActive}, {"check", StepPending}}}
	rep := ReflectionReport{HasPlan: true, CompletedSince: []string{"survey"}, Stalled: []StalledStep{{"change", 7}}, Tools: []ToolRate{{"edit_file", 4, 6}}, ContextUsed: 52000, ContextWindow: 128000}
	return reflectionPrompt(delta, act, plan, rep, nil)
}

func TestReflectionPrompt(t *testing.T) {
	for _, msg := range []string{samplePrompt(12), reflectionPrompt(12, Activity{}, PlanView{}, ReflectionReport{}, nil)} {
		lower := strings.ToLower(msg)
		if !strings.Contains(msg, "12") {
			t.Errorf("prompt lacks the delta: %s", msg)
		}
		for _, w := range []string{"error", "blocked"} {
			if strings.Contains(lower, w) {
				t.Errorf("prompt frames the checkpoint as a fault (%q): %s", w, msg)
			}
		}
		for _, w := range ecosystemWords {
			if strings.Contains(lower, w) {
				t.Errorf("prompt names an ecosystem (%q): %s", w, msg)
			}
		}
		restate := strings.Index(msg, "Restate the original task in one sentence")
		ruled := strings.Index(msg, "prove or rule out")
		next := strings.Index(msg, "next concrete output")
		act := strings.Index(msg, "act in this turn")
		if restate < 0 || ruled < restate || next < ruled || act < next {
			t.Errorf("questions missing or out of order (%d, %d, %d, %d): %s", restate, ruled, next, act, msg)
		}
		if !strings.Contains(msg, "how many calls away") {
			t.Errorf("prompt does not ask for the distance: %s", msg)
		}
	}
}

func TestReflectionPromptStatesFacts(t *testing.T) {
	msg := samplePrompt(12)
	for _, want := range []string{
		"6 reads of 2 files (a.txt, b.txt)", "1 edit to 1 file (a.txt)", "2 commands (1 failed)", "1 of 12 calls failed",
		"Plan: 1 of 3 steps completed", `active: "change"`, `pending: "check"`,
		`Completed since the last checkpoint: "survey"`, `"change" has been active for 7 rounds`, "splitting",
		"edit_file 4/6", "52000 of 128000 tokens",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("prompt lacks %q:\n%s", want, msg)
		}
	}
}

func TestCheckpointCarriesReport(t *testing.T) {
	p := quiet()
	p.ReflectionCadence = 10
	x := newSession(t, p)
	x.plan = PlanView{Steps: []PlanStep{{"read", StepActive}, {"write", StepPending}}}
	audit(x, 5, 1)
	x.round(failedEdit("/w/a.go", "no match"))
	x.plan = PlanView{Steps: []PlanStep{{"read", StepCompleted}, {"write", StepActive}}}
	x.summary(RoundSummary{Calls: []ToolCall{editCall("/w/a.go", "a", "b")}, ContextUsed: 1000, ContextWindow: 4000})
	ins := of(x.round(readCall("/w/z.go", "v", 1, 9, 9), readCall("/w/y.go", "v", 1, 9, 9), readCall("/w/x.go", "v", 1, 9, 9)), KindReflection)
	if len(ins) != 1 {
		t.Fatalf("want a checkpoint at call 10, got %v", kindsOf(x.fired))
	}
	msg := ins[0].Message
	for _, want := range []string{"In the last 10 tool calls", "1 edit to 1 file (a.go)", `Completed since the last checkpoint: "read"`, "edit_file 1/2", "read_file 8/8", "1 of 10 calls failed"} {
		if !strings.Contains(msg, want) {
			t.Errorf("checkpoint lacks %q:\n%s", want, msg)
		}
	}
	rep := Report(x.s, x.p)
	if len(rep.CompletedSince) != 0 {
		t.Errorf("after the checkpoint nothing is completed since: %v", rep.CompletedSince)
	}
}

// One call is "1 tool call", not "1 tool calls" (a cadence of 1).
func TestReflectionPromptSingular(t *testing.T) {
	msg := reflectionPrompt(1, Activity{Calls: 1}, PlanView{}, ReflectionReport{}, nil)
	for _, want := range []string{"In the last 1 tool call:", "What did the last 1 call prove", "0 of 1 call failed"} {
		if !strings.Contains(msg, want) {
			t.Errorf("prompt lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "1 tool calls") || strings.Contains(msg, "1 calls") {
		t.Errorf("a plural after 1:\n%s", msg)
	}
}
