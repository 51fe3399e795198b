package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
)

// nullClientArg makes keelbench the null client: started in keel's place
// with it as its only argument, keelbench sends the workload's requests
// and does nothing between rounds. Its gap is what the harness itself
// costs (the fake server, the loopback connection, net/http on both
// sides): the floor under keel's gap.
const nullClientArg = "__null-client"

// nullMessage is one message of the null client's requests.
type nullMessage struct {
	Role       string     `json:"role"`
	Content    *string    `json:"content"`
	ToolCalls  []nullCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

type nullCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// nullTools stands for keel's tool list in each request (about 7 KB).
func nullTools() []map[string]any {
	tools := make([]map[string]any, 14)
	for i := range tools {
		tools[i] = map[string]any{"type": "function", "function": map[string]any{
			"name": fmt.Sprintf("tool_%d", i), "description": strings.Repeat("d", 380),
			"parameters": map[string]any{"type": "object", "properties": map[string]any{}}}}
	}
	return tools
}

// runNullClient plays the workload against $OPENAI_BASE_URL as keel would
// be asked to, without keel: requests of keel's shape (a system prompt,
// the tools, the stream options), each answer's calls given a result the
// size of a workload file at once, until an answer has no calls. It prints what
// keel's --output-format json would, for the runner.
func runNullClient(stdout io.Writer) error {
	base := strings.TrimSuffix(os.Getenv("OPENAI_BASE_URL"), "/")
	system, user, result := strings.Repeat("s", 8<<10), "go", fileBody(0)
	msgs := []nullMessage{{Role: "system", Content: &system}, {Role: "user", Content: &user}}
	tools := nullTools()
	calls := 0
	for {
		body, err := json.Marshal(map[string]any{"model": "m", "messages": msgs, "stream": true,
			"stream_options": map[string]any{"include_usage": true}, "tools": tools})
		if err != nil {
			return err
		}
		called, err := nullRound(base+"/chat/completions", body)
		if err != nil {
			return err
		}
		if called == "" {
			break
		}
		calls++
		id := fmt.Sprintf("call_%d", calls)
		call := nullCall{ID: id, Type: "function"}
		call.Function.Name, call.Function.Arguments = called, "{}"
		msgs = append(msgs, nullMessage{Role: "assistant", ToolCalls: []nullCall{call}},
			nullMessage{Role: "tool", Content: &result, ToolCallID: id})
	}
	return json.NewEncoder(stdout).Encode(headlessOutput{StopReason: "completed", Turns: calls + 1, ToolCalls: calls})
}

// nullRound sends one request and reads its stream to the end; it returns
// the name of the tool the answer called, or "" for an answer without.
func nullRound(url string, body []byte) (string, error) {
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("the fake server answered %s", resp.Status)
	}
	called := ""
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Bytes()
		if called == "" && bytes.Contains(line, []byte(`"tool_calls"`)) {
			var chunk struct {
				Choices []struct {
					Delta struct {
						ToolCalls []struct {
							Function struct{ Name string } `json:"function"`
						} `json:"tool_calls"`
					} `json:"delta"`
				} `json:"choices"`
			}
			if json.Unmarshal(bytes.TrimPrefix(line, []byte("data: ")), &chunk) == nil &&
				len(chunk.Choices) > 0 && len(chunk.Choices[0].Delta.ToolCalls) > 0 {
				called = chunk.Choices[0].Delta.ToolCalls[0].Function.Name
			}
		}
	}
	// Read to the body's end so the connection is reused, as keel does.
	_, _ = io.Copy(io.Discard, resp.Body)
	return called, sc.Err()
}
