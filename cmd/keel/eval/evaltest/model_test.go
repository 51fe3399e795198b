package evaltest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/cmd/keel/eval"
)

// play talks to m as the agent would, without running tools: each call
// gets an "ok" result, and keel sends a note after the calls listed in
// notesAfter. It returns the replies until the model answers.
func play(t *testing.T, m *Model, task *eval.Task, system string, notesAfter ...int) []Reply {
	t.Helper()
	msgs := []llm.Message{{Role: llm.RoleSystem, Content: system}, {Role: llm.RoleUser, Content: task.Prompt}}
	var replies []Reply
	for calls := 0; len(replies) < 100; {
		r := m.Next(msgs)
		replies = append(replies, r)
		if r.Call == nil {
			return replies
		}
		calls++
		msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, Content: r.Text, ToolCalls: []llm.ToolCall{*r.Call}},
			llm.Message{Role: llm.RoleTool, ToolCallID: r.Call.ID, Content: "ok"})
		for _, n := range notesAfter {
			if n == calls {
				msgs = append(msgs, llm.Message{Role: llm.RoleUser, Content: "[Checkpoint: a note from keel]"})
			}
		}
	}
	t.Fatal("the model never answered")
	return nil
}

func task(t *testing.T, name string) *eval.Task {
	t.Helper()
	all, err := eval.Suite()
	if err != nil {
		t.Fatal(err)
	}
	sel, err := eval.Select(all, []string{name})
	if err != nil {
		t.Fatal(err)
	}
	return sel[0]
}

func model(t *testing.T, k Kind) *Model {
	t.Helper()
	m, err := New(k)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// calls renders the replies' calls as "tool args", one per call.
func calls(rs []Reply) []string {
	var out []string
	for _, r := range rs {
		if r.Call != nil {
			out = append(out, r.Call.Name+" "+r.Call.Arguments)
		}
	}
	return out
}

func TestGoodModelPlaysTheReference(t *testing.T) {
	tk := task(t, "config-fix")
	rs := play(t, model(t, Good), tk, "sys", 1, 2) // notes outside a drift change nothing
	var want []string
	for _, s := range tk.Reference.Steps {
		want = append(want, s.Tool+" "+string(s.Args))
	}
	if got := calls(rs); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if last := rs[len(rs)-1]; last.Text != tk.Reference.Answer {
		t.Errorf("answer %q", last.Text)
	}
}

func TestDriftAndHeeding(t *testing.T) {
	tk := task(t, "config-fix") // reads README.md, reads config/app.json, edits
	ref := len(tk.Reference.Steps)
	tests := []struct {
		name       string
		kind       Kind
		notesAfter []int
		wantCalls  func(k int) int // k: the drift length the seed chose
		wantNoted  bool
	}{
		{"rereader drifts K calls unchecked", Rereader, nil, func(k int) int { return ref + k }, false},
		{"rereader stops at a note during its drift", Rereader, []int{4}, func(int) int { return ref + 2 }, true},
		{"a note before the drift is ignored", Rereader, []int{1}, func(k int) int { return ref + k }, false},
		{"retrier stops at a note after its third probe", Retrier, []int{3}, func(int) int { return ref + 3 }, true},
		{"wanderer stops at the checkpoint after 10 calls", Wanderer, []int{10}, func(int) int { return ref + 10 }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := model(t, tt.kind)
			k := m.drift(m.read([]llm.Message{{Role: llm.RoleSystem, Content: "sys"}, {Role: llm.RoleUser, Content: tk.Prompt}})).length
			if r := driftRange[tt.kind]; k < r[0] || k > r[1] {
				t.Fatalf("drift length %d outside %v", k, r)
			}
			rs := play(t, m, tk, "sys", tt.notesAfter...)
			if got := len(calls(rs)); got != tt.wantCalls(k) {
				t.Errorf("%d calls, want %d (drift %d)", got, tt.wantCalls(k), k)
			}
			noted := false
			for _, r := range rs {
				noted = noted || strings.HasPrefix(r.Text, "Noted: I stop")
			}
			if noted != tt.wantNoted {
				t.Errorf("said it heeded the note: %v, want %v", noted, tt.wantNoted)
			}
			if rs[len(rs)-1].Call != nil || !strings.HasSuffix(rs[len(rs)-1].Text, tk.Reference.Answer) {
				t.Errorf("the last reply is not the reference answer: %+v", rs[len(rs)-1])
			}
		})
	}
}

// TestDriftLengthDependsOnTheRun: the seed comes from the system prompt
// (which names the run's directory), so runs drift by different amounts,
// always inside the kind's range.
func TestDriftLengthDependsOnTheRun(t *testing.T) {
	tk := task(t, "docs-flag")
	for _, kind := range []Kind{Rereader, Retrier, Wanderer} {
		m := model(t, kind)
		seen := map[int]bool{}
		for i := range 40 {
			c := m.read([]llm.Message{{Role: llm.RoleSystem, Content: fmt.Sprintf("cwd /tmp/run-%d", i)}, {Role: llm.RoleUser, Content: tk.Prompt}})
			k := m.drift(c).length
			if r := driftRange[kind]; k < r[0] || k > r[1] {
				t.Errorf("%s: drift %d outside %v", kind, k, r)
			}
			seen[k] = true
		}
		if len(seen) < 3 {
			t.Errorf("%s: only %d drift lengths over 40 runs", kind, len(seen))
		}
	}
}

func TestUnknownPromptAndKind(t *testing.T) {
	r := model(t, Good).Next([]llm.Message{{Role: llm.RoleUser, Content: "write me a poem"}})
	if r.Call != nil || !strings.Contains(r.Text, "not a task of the bundled suite") {
		t.Errorf("reply to an unknown prompt: %+v", r)
	}
	if _, err := New("sleepy"); err == nil {
		t.Error("New accepted an unknown kind")
	}
}

// A structured checkpoint gets a reflect call beside the next step, and
// reflect calls do not move the model along its script.
func TestStructuredCheckpointGetsAReflectCall(t *testing.T) {
	m, tk := model(t, Good), task(t, "rename")
	msgs := []llm.Message{{Role: llm.RoleSystem, Content: "s"}, {Role: llm.RoleUser, Content: tk.Prompt}}
	first := m.Next(msgs)
	msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{*first.Call}},
		llm.Message{Role: llm.RoleTool, ToolCallID: first.Call.ID, Content: "ok"},
		llm.Message{Role: llm.RoleUser, Content: "[Checkpoint: …] Give these answers as one reflect tool call"})
	r := m.Next(msgs)
	if r.Reflect == nil || r.Call == nil || !strings.Contains(r.Reflect.Arguments, `"adjustment":"continue"`) {
		t.Fatalf("reply %+v", r)
	}
	msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{*r.Reflect, *r.Call}})
	if next := m.Next(msgs); next.Call != nil && next.Call.Arguments == r.Call.Arguments {
		t.Errorf("the model repeated its step after a reflect call")
	}
}

// A lesson naming the drift makes the model skip it; another does not.
func TestLessonsEndADrift(t *testing.T) {
	m, tk := model(t, Retrier), task(t, "failing-test")
	start := func(lesson string) Reply {
		msgs := []llm.Message{{Role: llm.RoleSystem, Content: "s"}, {Role: llm.RoleUser, Content: tk.Prompt}}
		if lesson != "" {
			msgs = append(msgs, llm.Message{Role: llm.RoleUser, Content: "[keel] Lessons from earlier tasks in this project:\n- " + lesson})
		}
		return m.Next(msgs)
	}
	probe := `"command":` + fmt.Sprintf("%q", tk.Probe)
	if r := start(""); r.Call == nil || !strings.Contains(r.Call.Arguments, probe) {
		t.Fatalf("without lessons the retrier drifts first: %+v", r.Call)
	}
	if r := start("task: x\nfailed: error_streak: run_command failed 3 times"); r.Call == nil || strings.Contains(r.Call.Arguments, probe) {
		t.Errorf("a lesson naming the drift did not end it: %+v", r.Call)
	}
	if r := start("task: x\nfailed: reread: a.go read 3 times"); r.Call == nil || !strings.Contains(r.Call.Arguments, probe) {
		t.Errorf("a lesson about another drift ended it: %+v", r.Call)
	}
}
