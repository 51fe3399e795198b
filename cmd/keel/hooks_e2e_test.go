package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
)

// hookLog is a hook command that appends the event it reads on stdin to
// dir/EVENT.jsonl, in one write (hooks of one event run at once).
func hookLog(dir, event string) string {
	return fmt.Sprintf(`in=$(cat); echo "$in" >> %s`, filepath.Join(dir, event+".jsonl"))
}

// hookInputs reads what the EVENT hooks logged.
func hookInputs(t *testing.T, dir, event string) []map[string]any {
	t.Helper()
	data, _ := os.ReadFile(filepath.Join(dir, event+".jsonl"))
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%s hook input is not JSON: %v: %s", event, err, l)
		}
		out = append(out, m)
	}
	return out
}

// hookRows reads a session's hook_runs rows as "event exit decision".
func hookRows(t *testing.T, home, session string) []string {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(home, "data", "keel", "keel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.QueryContext(context.Background(), `SELECT event, exit_code, decision, duration_ns FROM hook_runs WHERE session_id = ? ORDER BY id`, session)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var ev, dec string
		var code int
		var dur int64
		if err := rows.Scan(&ev, &code, &dec, &dur); err != nil {
			t.Fatal(err)
		}
		if dur <= 0 {
			t.Errorf("%s hook run stored without its duration", ev)
		}
		out = append(out, fmt.Sprintf("%s %d %s", ev, code, dec))
	}
	return out
}

// streamLines parses stream-json output.
func streamLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("not JSON: %v: %s", err, l)
		}
		lines = append(lines, m)
	}
	return lines
}

func TestHooksRunAtEachEventWithTheirInput(t *testing.T) {
	logs, home, dir := t.TempDir(), t.TempDir(), project(t)
	var cfg strings.Builder
	// A small context window makes keel compact before the fourth
	// request: three reads of ~2,500 tokens each fit it one by one (so
	// none is cut to fit, agent/fit.go) but not together (6,000 tokens).
	cfg.WriteString("compact_at = 0.5\ncompact_keep_rounds = 1\n[providers.openai]\ncontext_window = 12000\n\n")
	for _, ev := range []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PreCompact", "Stop", "SessionEnd"} {
		fmt.Fprintf(&cfg, "[[hooks.%s]]\ncommand = %q\n\n", ev, hookLog(logs, ev))
	}
	writeUserConfig(t, home, cfg.String())
	for i, name := range []string{"big.txt", "big2.txt", "big3.txt"} {
		big := strings.Repeat(fmt.Sprintf("a line of text %d\n", i), 1000)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(big), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := llmtest.Start(t, llmtest.Script{Handler: func(r llmtest.RecordedRequest, n int) llmtest.Round {
		switch {
		case strings.Contains(r.Messages[len(r.Messages)-1].Content, "Summarize the conversation"):
			return llmtest.TextRound("summary: read big.txt")
		case n == 0:
			return llmtest.ToolRound(llmtest.Call{ID: "call_r", Name: "read_file", Args: `{"path":"big.txt"}`})
		case n == 1:
			return llmtest.ToolRound(llmtest.Call{ID: "call_r2", Name: "read_file", Args: `{"path":"big2.txt"}`})
		case n == 2:
			return llmtest.ToolRound(llmtest.Call{ID: "call_r3", Name: "read_file", Args: `{"path":"big3.txt"}`})
		case n == 3:
			return llmtest.ToolRound(llmtest.Call{ID: "call_g", Name: "glob", Args: `{"pattern":"*.go"}`})
		}
		return llmtest.TextRound("done")
	}})
	out, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "read it", "--output-format", "stream-json")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	lines := streamLines(t, out)
	session := lines[0]["session_id"].(string)

	checks := map[string]func(map[string]any) bool{
		"SessionStart":     func(m map[string]any) bool { return m["source"] == "startup" },
		"UserPromptSubmit": func(m map[string]any) bool { return m["prompt"] == "read it" },
		"PreToolUse": func(m map[string]any) bool {
			return m["tool_name"] == "read_file" && m["tool_use_id"] == "call_r" && m["tool_input"].(map[string]any)["path"] == "big.txt"
		},
		"PostToolUse": func(m map[string]any) bool {
			resp, _ := m["tool_response"].(map[string]any)
			return m["tool_name"] == "read_file" && strings.Contains(fmt.Sprint(resp["output"]), "a line of text")
		},
		"PreCompact": func(m map[string]any) bool { return m["trigger"] == "auto" },
		"Stop":       func(m map[string]any) bool { return m["stop_hook_active"] == false },
		"SessionEnd": func(m map[string]any) bool { return m["reason"] == "exit" },
	}
	var shown []string
	for _, l := range lines {
		if l["subtype"] == "hook_response" {
			shown = append(shown, l["hook_event"].(string))
		}
	}
	for ev, ok := range checks {
		ins := hookInputs(t, logs, ev)
		if len(ins) == 0 {
			t.Errorf("the %s hook did not run", ev)
			continue
		}
		if in := ins[0]; in["hook_event_name"] != ev || in["session_id"] != session || in["cwd"] == "" || !ok(in) {
			t.Errorf("%s hook read %v", ev, in)
		}
		if !strings.Contains(strings.Join(shown, " "), ev) {
			t.Errorf("no hook_response line for %s in the stream: %v", ev, shown)
		}
	}
	if got := lines[len(lines)-1]["type"]; got != "result" {
		t.Errorf("the last line is %v, want the result after the SessionEnd hook's line", got)
	}
	rows := strings.Join(hookRows(t, home, session), ", ")
	for ev := range checks {
		if !strings.Contains(rows, ev+" 0 ") {
			t.Errorf("the datalog lacks the %s run: %s", ev, rows)
		}
	}
}

func TestPreToolUseHookBlocksWithExit2(t *testing.T) {
	home, dir := t.TempDir(), project(t)
	writeUserConfig(t, home, `[[hooks.PreToolUse]]
matcher = "write_file|edit_file"
command = "echo 'main.go is frozen: change lib.go instead' >&2; exit 2"
timeout = "10s"
`)
	edit := llmtest.Call{ID: "call_e", Name: "edit_file", Args: `{"path":"main.go","old_string":"func main() {}","new_string":"func main() { panic(1) }"}`}
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.ToolRound(llmtest.Call{ID: "call_r", Name: "read_file", Args: `{"path":"main.go"}`}),
		llmtest.ToolRound(edit), llmtest.TextRound("ok")))
	out, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "edit", "--yolo", "--output-format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "main.go")); strings.Contains(string(data), "panic") {
		t.Error("the blocked edit ran")
	}
	reqs := srv.Requests()
	if got := toolResults(reqs[1].Messages); strings.Contains(got, "frozen") {
		t.Errorf("the hook blocked read_file, which its matcher does not name: %s", got)
	}
	if got := toolResults(reqs[2].Messages); !strings.Contains(got, "a PreToolUse hook blocked this call: main.go is frozen: change lib.go instead") {
		t.Errorf("the model was not told the hook's reason: %s", got)
	}
	var res struct {
		SessionID string `json:"session_id"`
		Denials   []struct {
			Tool string `json:"tool_name"`
			ID   string `json:"tool_use_id"`
		} `json:"permission_denials"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Denials) != 1 || res.Denials[0].ID != "call_e" {
		t.Errorf("denials = %+v (%v)", res.Denials, err)
	}
	if rows := hookRows(t, home, res.SessionID); fmt.Sprint(rows) != "[PreToolUse 2 block]" {
		t.Errorf("hook_runs = %v", rows)
	}
}

// TestStopHookSendsTheModelBackOnce: a Stop hook that blocks, by exit 2
// or by exit 0 with {"decision":"block"}, sends the model back with its
// reason; once stop_hook_active is true it lets the task end.
func TestStopHookSendsTheModelBackOnce(t *testing.T) {
	const again = "if grep -q '\\\"stop_hook_active\\\":true'; then exit 0; fi; "
	cases := []struct {
		name, block, told, final, rows string
	}{
		{"exit 2", `echo 'run go vet before you stop' >&2; exit 2`, "run go vet before you stop", "vetted and done", "[Stop 2 block Stop 0 ]"},
		{"JSON decision", `echo '{\"decision\":\"block\",\"reason\":\"update CHANGELOG.md first\"}'`,
			"update CHANGELOG.md first", "changelog updated", "[Stop 0 block Stop 0 ]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home, dir := t.TempDir(), project(t)
			writeUserConfig(t, home, "[[hooks.Stop]]\ncommand = \""+again+c.block+"\"\n")
			srv := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("done"), llmtest.TextRound(c.final)))
			out, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "fix", "--output-format", "json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			reqs := srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests, want the Stop hook to send the model back once", len(reqs))
			}
			if last := reqs[1].Messages[len(reqs[1].Messages)-1].Content; !strings.Contains(last, "A Stop hook did not let the task end yet: "+c.told) {
				t.Errorf("the model was told %q", last)
			}
			var res struct {
				Result    string `json:"result"`
				SessionID string `json:"session_id"`
			}
			_ = json.Unmarshal([]byte(out), &res)
			if rows := hookRows(t, home, res.SessionID); res.Result != c.final || fmt.Sprint(rows) != c.rows {
				t.Errorf("result %q, hook_runs = %v", res.Result, rows)
			}
		})
	}
}

func TestHookJSONDecisions(t *testing.T) {
	edit := llmtest.Call{ID: "call_e", Name: "edit_file", Args: `{"path":"main.go","old_string":"func main() {}","new_string":"func main() { println(1) }"}`}
	cases := []struct {
		name   string
		reply  string
		edited bool
		reason string
	}{
		{"allow runs a call headless denies", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`, true, ""},
		{"deny blocks it with the reason", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no edits on Fridays"}}`, false, "no edits on Fridays"},
		{"the old block decision", `{"decision":"block","reason":"use the formatter"}`, false, "use the formatter"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home, dir := t.TempDir(), project(t)
			reply := filepath.Join(t.TempDir(), "reply.json")
			if err := os.WriteFile(reply, []byte(c.reply), 0o644); err != nil {
				t.Fatal(err)
			}
			writeUserConfig(t, home, fmt.Sprintf("[[hooks.PreToolUse]]\nmatcher = \"edit_file\"\ncommand = \"cat %s\"\n", reply))
			read := llmtest.Call{ID: "call_r", Name: "read_file", Args: `{"path":"main.go"}`}
			srv := llmtest.Start(t, llmtest.Script{Handler: func(_ llmtest.RecordedRequest, n int) llmtest.Round {
				switch n {
				case 0:
					return llmtest.ToolRound(read)
				case 1:
					return llmtest.ToolRound(edit)
				}
				return llmtest.TextRound("ok") // (a verify checkpoint may ask once more)
			}})
			out, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "edit", "--output-format", "json")
			if code != 0 {
				t.Fatalf("exit %d: %s %s", code, errOut, out)
			}
			data, _ := os.ReadFile(filepath.Join(dir, "main.go"))
			if edited := strings.Contains(string(data), "println(1)"); edited != c.edited {
				t.Errorf("edited = %v, want %v", edited, c.edited)
			}
			if got := toolResults(srv.Requests()[2].Messages); !strings.Contains(got, c.reason) {
				t.Errorf("tool result %q lacks %q", got, c.reason)
			}
		})
	}
}

func TestAHangingHookIsKilledAtItsTimeoutAndShown(t *testing.T) {
	home, dir := t.TempDir(), project(t)
	writeUserConfig(t, home, "[[hooks.PreToolUse]]\ncommand = \"sleep 60\"\ntimeout = \"500ms\"\n")
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.ToolRound(llmtest.Call{Name: "read_file", Args: `{"path":"main.go"}`}), llmtest.TextRound("ok")))
	start := time.Now()
	out, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "read")
	if code != 0 || out != "ok\n" {
		t.Fatalf("exit %d out %q: %s", code, out, errOut)
	}
	session := onlySession(t, home)
	if rows := hookRows(t, home, session); fmt.Sprint(rows) != "[PreToolUse -1 error]" {
		t.Errorf("hook_runs = %v, want the killed run stored as an error without an exit code", rows)
	}
	if timedOut := hookTimedOut(t, home, session); timedOut != 1 {
		t.Errorf("%d runs stored as timed out, want 1", timedOut)
	}
	if took := time.Since(start); took > 45*time.Second {
		t.Errorf("the run took %s: the hook was not killed at its timeout", took)
	}
	if !strings.Contains(errOut, "⚑ PreToolUse hook sleep 60 (read_file): hook error, no exit") || !strings.Contains(errOut, "timed out after 500ms") {
		t.Errorf("stderr does not show the timed-out hook:\n%s", errOut)
	}
	if got := toolResults(srv.Requests()[1].Messages); !strings.Contains(got, "package main") {
		t.Errorf("a hook error blocked the call: %s", got)
	}
}

func TestUserPromptSubmitHookBlocksThePrompt(t *testing.T) {
	home, dir := t.TempDir(), project(t)
	writeUserConfig(t, home, "[[hooks.UserPromptSubmit]]\ncommand = \"echo 'prompts may not name passwords' >&2; exit 2\"\n")
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("never")))
	out, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "what is the password", "--output-format", "json")
	if code != 3 || len(srv.Requests()) != 0 {
		t.Fatalf("exit %d, %d requests: %s", code, len(srv.Requests()), errOut)
	}
	var res struct {
		StopReason string `json:"stop_reason"`
		Message    string `json:"message"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.StopReason != "hook_blocked" || !strings.Contains(res.Message, "prompts may not name passwords") {
		t.Errorf("result = %+v (%v)", res, err)
	}
}

func TestAnUntrustedProjectsHooksAreIgnored(t *testing.T) {
	home, dir := t.TempDir(), project(t)
	marker := filepath.Join(t.TempDir(), "ran")
	if err := os.MkdirAll(filepath.Join(dir, ".keel"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".keel", "config.toml"), []byte(fmt.Sprintf("[[hooks.UserPromptSubmit]]\ncommand = \"touch %s\"\n", marker)), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.Start(t, llmtest.Script{Handler: func(llmtest.RecordedRequest, int) llmtest.Round { return llmtest.TextRound("hi") }})
	_, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "hello")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("an untrusted project's hook ran")
	}
	if !strings.Contains(errOut, "hooks.UserPromptSubmit") || !strings.Contains(errOut, "keel trust") {
		t.Errorf("no warning names the ignored hook and keel trust:\n%s", errOut)
	}
	if _, errOut, code := runKeelHome(t, home, nil, dir, "", "trust"); code != 0 {
		t.Fatalf("keel trust: %d %s", code, errOut)
	}
	if _, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "hello"); code != 0 || strings.Contains(errOut, "hooks.UserPromptSubmit") {
		t.Fatalf("trusted run: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Error("the trusted project's hook did not run")
	}
}

func TestHooksGetNoSecrets(t *testing.T) {
	home, dir := t.TempDir(), project(t)
	env := filepath.Join(t.TempDir(), "env")
	writeUserConfig(t, home, fmt.Sprintf("[[hooks.SessionStart]]\ncommand = \"env > %s\"\n", env))
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("hi")))
	if _, errOut, code := runKeelEnv(t, home, []string{"GITHUB_TOKEN=ghp_e2e_hook_secret", "KEEL_HOOK_VISIBLE=1"}, srv, dir, "", "-p", "hello"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(env)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"sk-test-e2e-secret-123456", "ghp_e2e_hook_secret", "OPENAI_API_KEY"} {
		if strings.Contains(string(data), secret) {
			t.Errorf("the hook's environment holds %s", secret)
		}
	}
	if !strings.Contains(string(data), "KEEL_HOOK_VISIBLE=1") || !strings.Contains(string(data), "KEEL_PROJECT_DIR=") {
		t.Errorf("the hook lacks keel's ordinary environment:\n%s", data)
	}
}

// hookTimedOut counts a session's hook runs stored as timed out.
func hookTimedOut(t *testing.T, home, session string) int {
	t.Helper()
	var n int
	queryRow(t, home, &n, `SELECT count(*) FROM hook_runs WHERE session_id = ? AND timed_out = 1`, session)
	return n
}

// onlySession is the id of the one session in home's datalog.
func onlySession(t *testing.T, home string) string {
	t.Helper()
	var id string
	queryRow(t, home, &id, `SELECT id FROM sessions`)
	return id
}

// queryRow scans the one row of query over home's datalog into dest.
func queryRow(t *testing.T, home string, dest any, query string, args ...any) {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(home, "data", "keel", "keel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.QueryRowContext(context.Background(), query, args...).Scan(dest); err != nil {
		t.Fatal(err)
	}
}

// TestAHookErrorIsShownAndBlocksNothing: an exit code other than 0 and 2
// is a hook error: the line says so with the code and the hook's stderr,
// the datalog keeps it, and the call runs.
func TestAHookErrorIsShownAndBlocksNothing(t *testing.T) {
	home, dir := t.TempDir(), project(t)
	writeUserConfig(t, home, "[[hooks.PreToolUse]]\ncommand = \"echo 'lint config missing' >&2; exit 7\"\n")
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.ToolRound(llmtest.Call{Name: "read_file", Args: `{"path":"main.go"}`}), llmtest.TextRound("ok")))
	out, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "read", "--output-format", "stream-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := streamLines(t, out)
	var shown map[string]any
	for _, l := range lines {
		if l["subtype"] == "hook_response" {
			shown = l
		}
	}
	if shown == nil || shown["exit_code"] != float64(7) || shown["hook_event"] != "PreToolUse" || shown["outcome"] != "error" ||
		shown["reason"] != "lint config missing" || shown["tool_use_id"] != "call_0" {
		t.Errorf("hook_response line = %v", shown)
	}
	if got := toolResults(srv.Requests()[1].Messages); !strings.Contains(got, "package main") {
		t.Errorf("a hook error blocked the call: %s", got)
	}
	if rows := hookRows(t, home, lines[0]["session_id"].(string)); fmt.Sprint(rows) != "[PreToolUse 7 error]" {
		t.Errorf("hook_runs = %v", rows)
	}
}
