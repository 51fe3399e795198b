package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/tools"
)

// swapAfterDecide is the real policy, with a symlink swapped right after
// each decision: the moment an attacker needs.
type swapAfterDecide struct {
	*tools.Policy
	swap func()
}

func (p swapAfterDecide) Decide(tool string, args json.RawMessage) tools.Decision {
	d := p.Policy.Decide(tool, args)
	p.swap()
	return d
}

// The tool acts on the path the policy approved: a link re-pointed
// between the decision and the write does not move the write.
func TestToolRunsOnTheApprovedPath(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink("real", link); err != nil {
		t.Fatal(err)
	}
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	pol, err := tools.NewPolicy(ws, tools.PolicyOptions{Allow: []string{"write_file"}})
	if err != nil {
		t.Fatal(err)
	}
	swap := func() {
		os.Remove(link)
		os.Symlink(outside, link)
	}
	write := llmtest.Call{Name: "write_file", Args: `{"path":"link/f.txt","content":"x\n"}`}
	s, _ := newSession(t, llmtest.Rounds(llmtest.ToolRound(write), llmtest.TextRound("done")), func(o *Options) {
		o.Tools = tools.New(ws, tools.Options{})
		o.Permissions = swapAfterDecide{pol, swap}
	})
	runTask(t, context.Background(), s, "write")
	if _, err := os.Stat(filepath.Join(outside, "f.txt")); err == nil {
		t.Fatal("the write followed the swapped link outside the workspace")
	}
	if _, err := os.Stat(filepath.Join(root, "real", "f.txt")); err != nil {
		t.Errorf("the approved write did not happen: %v", err)
	}
}
