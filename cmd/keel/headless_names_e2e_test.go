package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
)

// TestHeadlessJSONCarriesTheNamesOtherToolsRead runs the real binary and
// checks the result object's compatibility names (type, subtype,
// is_error, num_turns, total_cost_usd) beside keel's own fields, for
// each kind of ending, in json and stream-json output.
func TestHeadlessJSONCarriesTheNamesOtherToolsRead(t *testing.T) {
	glob := llmtest.ToolRound(llmtest.Call{Name: "glob", Args: `{"pattern":"*.go"}`})
	cases := []struct {
		name     string
		rounds   []llmtest.Round
		args     []string
		prices   bool
		code     int
		subtype  string
		stop     string
		turns    int
		isError  bool
		wantCost bool
	}{
		{"completed with prices", []llmtest.Round{glob, llmtest.TextRound("done")}, nil, true, 0, "success", "completed", 2, false, true},
		{"completed, stream-json", []llmtest.Round{glob, llmtest.TextRound("done")}, []string{"--output-format", "stream-json"}, false, 0, "success", "completed", 2, false, false},
		{"max turns", []llmtest.Round{glob, glob, glob}, []string{"--max-turns", "1"}, false, 3, "error_max_turns", "max_turns", 1, true, false},
		{"max tool calls", []llmtest.Round{glob, glob, glob}, []string{"--max-tool-calls", "1"}, false, 3, "error_max_turns", "max_tool_calls", 1, true, false},
		{"provider error", []llmtest.Round{llmtest.ErrorRound(400, "bad request")}, nil, false, 1, "error_during_execution", "provider_error", 1, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			if c.prices {
				writeUserConfig(t, home, "[providers.openai]\ninput_price_per_mtok = 2.0\noutput_price_per_mtok = 8.0\n")
			}
			srv := llmtest.Start(t, llmtest.Rounds(c.rounds...))
			args := append([]string{"-p", "look", "--output-format", "json"}, c.args...)
			if !c.prices {
				args = append(args, "--model", "keel-test-unpriced") // a model keel has no list price for
			}
			out, errOut, code := runKeelHome(t, home, srv, project(t), "", args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, c.code, errOut)
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			var res map[string]any
			if err := json.Unmarshal([]byte(lines[len(lines)-1]), &res); err != nil {
				t.Fatalf("last line is not JSON: %v\n%s", err, out)
			}
			for _, k := range []string{"session_id", "result", "stop_reason", "turns", "tool_calls", "usage", "cost_usd",
				"duration_ms", "interventions", "permission_denials", "plan"} {
				if _, ok := res[k]; !ok {
					t.Errorf("keel's own field %q is missing: %s", k, out)
				}
			}
			want := map[string]any{"type": "result", "subtype": c.subtype, "is_error": c.isError, "stop_reason": c.stop,
				"num_turns": float64(c.turns), "turns": float64(c.turns)}
			for k, v := range want {
				if res[k] != v {
					t.Errorf("%s = %v, want %v", k, res[k], v)
				}
			}
			checkCost(t, res, c.wantCost)
		})
	}
}

// checkCost: total_cost_usd is cost_usd when keel knows the prices, and
// 0 (a number, never null) when it does not and cost_usd is null.
func checkCost(t *testing.T, res map[string]any, priced bool) {
	t.Helper()
	total, ok := res["total_cost_usd"].(float64)
	if !ok {
		t.Fatalf("total_cost_usd = %v, want a number", res["total_cost_usd"])
	}
	if !priced {
		if total != 0 || res["cost_usd"] != nil {
			t.Errorf("without prices total_cost_usd = %v and cost_usd = %v, want 0 and null", total, res["cost_usd"])
		}
		return
	}
	if cost, _ := res["cost_usd"].(float64); total <= 0 || total != cost {
		t.Errorf("total_cost_usd = %v, cost_usd = %v: want the same positive figure", total, res["cost_usd"])
	}
}
