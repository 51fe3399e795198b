package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/tools"
	"github.com/keel-dev/keel/ui/dialog"
)

// The status bar counts running background jobs, a job's end is a notice,
// and /jobs lists them, running first.
func TestJobsInTheTUI(t *testing.T) {
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	js := tools.NewJobs(tools.JobsOptions{})
	set := tools.New(ws, tools.Options{Jobs: js})
	s := agent.New(agent.Options{ProviderName: "openai", Model: "gpt-test", Jobs: js, Workdir: ws.Root()})
	t.Cleanup(s.Close)
	dark := true
	m := New(Options{Session: s, Bridge: dialog.NewBridge(), ProviderLabel: "openai", Model: "gpt-test",
		ContextWindow: 128000, Cadence: 10, Dark: &dark, Width: 160, Height: 30})
	var run tools.Tool
	for _, tool := range set {
		if tool.Name() == tools.NameRunCommand {
			run = tool
		}
	}
	for _, c := range []string{"sleep 1000", "echo done"} {
		args, _ := json.Marshal(map[string]any{"command": c, "background": true})
		if res, err := run.Run(context.Background(), args); err != nil || res.IsError {
			t.Fatalf("start %q: %v %+v", c, err, res)
		}
	}
	list := js.List()
	running := list[0]
	ended := list[1]
	code := 0
	ended.Running, ended.ExitCode = false, &code
	send(m, events(agent.JobChanged{Job: running, Running: 1}))
	if v := plain(m); !strings.Contains(v, "1 job running") {
		t.Errorf("status bar lacks the job count:\n%s", v)
	}
	send(m, events(agent.JobChanged{Job: ended, Running: 1}))
	if v := plain(m); !strings.Contains(v, "job 2  ended, exit code 0") {
		t.Errorf("no notice of the job's end:\n%s", v)
	}
	prompt(m, "/jobs")
	v := plain(m)
	i, j := strings.Index(v, "job 1  running"), strings.LastIndex(v, "job 2  ")
	if i < 0 || j < i || !strings.Contains(v, "sleep 1000") {
		t.Errorf("/jobs:\n%s", v)
	}
	send(m, events(agent.JobChanged{Job: ended, Running: 0}))
	if v := plain(m); strings.Contains(v, "job running") || strings.Contains(v, "jobs running") {
		t.Errorf("the count stays after the last job ended:\n%s", v)
	}
}
