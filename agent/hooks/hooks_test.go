package hooks

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func runner(t *testing.T, hs ...Hook) *Runner {
	t.Helper()
	r, err := New(hs, t.TempDir(), []string{"PATH=/usr/bin:/bin", "VISIBLE=yes"})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestDecisions(t *testing.T) {
	cases := []struct {
		name     string
		event    Event
		command  string
		decision string
		reason   string
	}{
		{"exit 0 proceeds", PreToolUse, "exit 0", DecisionNone, ""},
		{"exit 2 blocks with stderr", PreToolUse, "echo 'no writes to vendor/' >&2; exit 2", DecisionBlock, "no writes to vendor/"},
		{"exit 1 is a hook error", PreToolUse, "echo oops >&2; exit 1", DecisionError, "oops"},
		{"a missing script is a hook error", PreToolUse, "./no-such-script.sh", DecisionError, "No such file"},
		{"decision block", Stop, `echo '{"decision":"block","reason":"tests fail"}'`, DecisionBlock, "tests fail"},
		{"permissionDecision deny", PreToolUse, `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"secrets"}}'`, DecisionBlock, "secrets"},
		{"permissionDecision allow", PreToolUse, `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`, DecisionAllow, ""},
		{"permissionDecision ask", PreToolUse, `echo '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"look first"}}'`, DecisionAsk, "look first"},
		{"the old approve", PreToolUse, `echo '{"decision":"approve"}'`, DecisionAllow, ""},
		{"approve means nothing to Stop", Stop, `echo '{"decision":"approve"}'`, DecisionNone, ""},
		{"permissionDecision means nothing to PostToolUse", PostToolUse, `echo '{"hookSpecificOutput":{"permissionDecision":"deny"}}'`, DecisionNone, ""},
		{"plain stdout is no reply", PreToolUse, "echo checked", DecisionNone, ""},
		{"a JSON reply on exit 1 is ignored", PreToolUse, `echo '{"decision":"block"}'; exit 1`, DecisionError, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runner(t, Hook{Event: c.event, Command: c.command})
			out := r.Run(context.Background(), Input{HookEventName: c.event, ToolName: "write_file"})
			if len(out.Results) != 1 {
				t.Fatalf("%d results", len(out.Results))
			}
			res := out.Results[0]
			if res.Decision() != c.decision || !strings.Contains(res.Reason(), c.reason) {
				t.Errorf("decision %q reason %q (exit %d, err %q), want %q %q", res.Decision(), res.Reason(), res.ExitCode, res.Err, c.decision, c.reason)
			}
		})
	}
}

func TestTheHookReadsTheEventOnStdinInTheWorkspace(t *testing.T) {
	r := runner(t, Hook{Event: PreToolUse, Command: `cat > in.json; pwd; echo "$VISIBLE $KEEL_PROJECT_DIR"`})
	out := r.Run(context.Background(), Input{SessionID: "s1", HookEventName: PreToolUse, ToolName: "edit_file",
		ToolInput: json.RawMessage(`{"path":"a.go"}`), ToolUseID: "call_1"})
	res := out.Results[0]
	if res.ExitCode != 0 || !strings.Contains(res.Stdout, r.dir+"\nyes "+r.dir) {
		t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	data, err := exec.Command("cat", r.dir+"/in.json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var in map[string]any
	if err := json.Unmarshal(data, &in); err != nil {
		t.Fatal(err)
	}
	if in["hook_event_name"] != "PreToolUse" || in["tool_name"] != "edit_file" || in["tool_use_id"] != "call_1" || in["session_id"] != "s1" ||
		in["tool_input"].(map[string]any)["path"] != "a.go" {
		t.Errorf("stdin = %s", data)
	}
	if _, ok := in["prompt"]; ok {
		t.Errorf("another event's field on stdin: %s", data)
	}
}

func TestAHangingHookIsKilledAtItsTimeout(t *testing.T) {
	r := runner(t, Hook{Event: Stop, Command: "sleep 30 & sleep 30", Timeout: 300 * time.Millisecond})
	start := time.Now()
	res := r.Run(context.Background(), Input{HookEventName: Stop}).Results[0]
	if took := time.Since(start); took > 20*time.Second {
		t.Fatalf("the hook held keel for %s", took)
	}
	if !res.TimedOut || res.Decision() != DecisionError || !strings.Contains(res.Reason(), "timed out after 300ms") {
		t.Errorf("result %+v, decision %q", res, res.Decision())
	}
	if out, _ := exec.Command("pgrep", "-f", "sleep 30 & sleep 30").Output(); len(out) > 0 {
		t.Errorf("the hook's processes outlived it: %s", out)
	}
}

func TestCancelKillsTheHook(t *testing.T) {
	r := runner(t, Hook{Event: PreToolUse, Command: "sleep 30"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan Result)
	go func() { done <- r.Run(ctx, Input{HookEventName: PreToolUse}).Results[0] }()
	time.Sleep(50 * time.Millisecond) // let it start; the outcome is the same either way
	cancel()
	select {
	case res := <-done:
		if res.Err != "cancelled" || res.Decision() != DecisionError {
			t.Errorf("result %+v", res)
		}
	case <-time.After(time.Minute):
		t.Fatal("cancel did not stop the hook")
	}
}

func TestMatchers(t *testing.T) {
	cases := []struct {
		matcher string
		name    string
		want    bool
	}{
		{"", "write_file", true},
		{"*", "anything", true},
		{"write_file|edit_file", "edit_file", true},
		{"write_file|edit_file", "read_file", false},
		{"write", "write_file", false}, // whole names only
		{"mcp__.*", "mcp__github__issue", true},
		{"mcp__.*", "run_command", false},
		{"Write", "write_file", false}, // case matters
	}
	for _, c := range cases {
		h := Hook{Event: PreToolUse, Matcher: c.matcher, Command: "true"}
		if err := h.Compile(); err != nil {
			t.Fatal(err)
		}
		if got := h.Matches(c.name); got != c.want {
			t.Errorf("%q matches %q = %v, want %v", c.matcher, c.name, got, c.want)
		}
	}
	r := runner(t, Hook{Event: PreToolUse, Matcher: "edit_file", Command: "exit 2"})
	if out := r.Run(context.Background(), Input{HookEventName: PreToolUse, ToolName: "read_file"}); len(out.Results) != 0 {
		t.Errorf("a hook ran for a tool its matcher does not name: %+v", out)
	}
	if out := r.Run(context.Background(), Input{HookEventName: PostToolUse, ToolName: "edit_file"}); len(out.Results) != 0 {
		t.Errorf("a hook ran for another event: %+v", out)
	}
}

func TestBadHooksAreOneSentence(t *testing.T) {
	for _, h := range []Hook{
		{Event: "PreTool", Command: "true", Origin: "config.toml:3"},
		{Event: PreToolUse, Command: " ", Origin: "config.toml:3"},
		{Event: PreToolUse, Matcher: "(", Command: "true", Origin: "config.toml:3"},
	} {
		_, err := New([]Hook{h}, t.TempDir(), nil)
		if err == nil || !strings.HasPrefix(err.Error(), "config.toml:3: ") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: %v", h, err)
		}
	}
}

func TestOutcomePrecedence(t *testing.T) {
	r := runner(t,
		Hook{Event: PreToolUse, Command: `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`},
		Hook{Event: PreToolUse, Command: `echo '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"b"}}'`},
		Hook{Event: PreToolUse, Command: `echo first >&2; exit 2`},
		Hook{Event: PreToolUse, Command: `echo '{"hookSpecificOutput":{"additionalContext":"ctx"}}'`},
	)
	out := r.Run(context.Background(), Input{HookEventName: PreToolUse, ToolName: "x"})
	if d, why := out.Permission(); d != DecisionBlock || why != "first" {
		t.Errorf("permission = %q %q", d, why)
	}
	if out.Context() != "ctx" {
		t.Errorf("context = %q", out.Context())
	}
	if out.Results[0].Hook.Command != r.hooks[0].Command || out.Results[3].Hook.Command != r.hooks[3].Command {
		t.Error("results are not in configuration order")
	}
}

func FuzzMatcher(f *testing.F) {
	for _, s := range []string{"", "*", "write_file|edit_file", "mcp__.*", "(", "a)|(b"} {
		f.Add(s, "write_file")
	}
	f.Fuzz(func(t *testing.T, matcher, name string) {
		h := Hook{Event: PreToolUse, Matcher: matcher, Command: "true"}
		if h.Compile() != nil {
			return
		}
		got := h.Matches(name)
		if matcher == "" || matcher == "*" {
			if !got {
				t.Fatalf("%q must match everything, not %q", matcher, name)
			}
			return
		}
		if got && name == "" && !h.re.MatchString("") {
			t.Fatalf("%q matched an empty name", matcher)
		}
	})
}
