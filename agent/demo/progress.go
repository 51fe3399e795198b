package demo

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/keel-dev/keel/agent/llm"
)

// progress is how far the story has got, read afresh from each request's
// history, so the answer depends on what actually happened (a denial, a
// cancelled call, a retried request) rather than on a counter.
type progress struct {
	planned      bool // a plan was recorded
	listed       bool // the project root was listed
	readCode     bool // greet/greet.go was read (since the last failed edit)
	readTest     bool // greet/greet_test.go was read
	tested       bool // the tests ran before the edit
	testsOK      bool // ... and passed: nothing to fix
	noGo         bool // the go command is missing
	edited       bool // the fix is in
	denied       bool // the last edit was refused
	editFails    int  // edits that failed for another reason
	verified     bool // the tests ran after the edit
	verifyOK     bool // ... and passed
	testDenied   bool // the first test run was refused: go on without it
	verifyDenied bool // the test run after the edit was refused
	closed       bool // the closing plan update was recorded
	answered     bool // the story's final answer was given

	// About the latest prompt, for the wording of the next answer only.
	resumed bool // it came while the story was unfinished (after a cancel)
	retry   bool // it came after a declined edit: try the edit again
	extra   bool // it came after the story ended
	// feedback: the person asked for a different plan (plan confirmation).
	feedback bool

	rounds   int  // assistant messages so far, for unique tool-call ids
	headless bool // no screen to give a tour of
}

// readProgress folds the history into a progress.
func readProgress(msgs []llm.Message) progress {
	var p progress
	calls := map[string]llm.ToolCall{}
	prompts := 0
	for _, m := range msgs {
		switch m.Role {
		case llm.RoleUser:
			if !injected(m.Content) {
				if prompts++; prompts > 1 {
					p.newPrompt()
				}
			}
		case llm.RoleAssistant:
			p.rounds++
			p.resumed, p.extra, p.feedback = false, false, false
			if len(m.ToolCalls) > 0 {
				p.retry = false
			}
			for _, c := range m.ToolCalls {
				calls[c.ID] = c
			}
			if len(m.ToolCalls) == 0 && m.Content != "" && p.closed {
				p.answered = true
			}
		case llm.RoleTool:
			if c, ok := calls[m.ToolCallID]; ok {
				p.observe(c, m.Content)
			}
		}
	}
	return p
}

// newPrompt notes a user prompt after the first one.
func (p *progress) newPrompt() {
	switch {
	case p.answered && p.denied:
		// The person may have changed their mind: reopen the fix.
		p.retry = true
		p.answered, p.closed, p.denied = false, false, false
	case p.answered:
		p.extra = true
	case p.planned:
		p.resumed = true
	}
}

// observe records one tool result.
func (p *progress) observe(c llm.ToolCall, out string) {
	if strings.HasPrefix(out, "permission denied") {
		p.observeDenial(c.Name)
		return
	}
	if strings.HasPrefix(out, "cancelled") {
		return // nothing ran; the step is still to do
	}
	if strings.HasPrefix(out, planFeedbackPrefix) {
		p.feedback = true // held back; the call is made again
		return
	}
	switch c.Name {
	case "update_plan":
		p.observePlan(c.Arguments, out)
	case "list_dir":
		p.listed = p.listed || strings.Contains(out, "greet")
	case "read_file":
		p.observeRead(c.Arguments, out)
	case "run_command":
		p.observeCommand(out)
	case "edit_file":
		p.observeEdit(out)
	}
}

// observeDenial records a refused call. A refused test run is not asked
// for again: the story goes on without it, as a person would expect.
func (p *progress) observeDenial(tool string) {
	switch {
	case tool == "edit_file":
		p.denied = true
	case tool == "run_command" && !p.edited:
		p.tested, p.testDenied = true, true
	case tool == "run_command":
		p.verified, p.verifyDenied = true, true
	}
}

func (p *progress) observePlan(args, out string) {
	if !strings.HasPrefix(out, "plan ") { // "plan updated: …" or "plan recorded: …"
		return
	}
	p.planned = true
	var u struct {
		Steps []struct{ Status string } `json:"steps"`
	}
	if json.Unmarshal([]byte(args), &u) != nil || len(u.Steps) == 0 {
		return
	}
	for _, s := range u.Steps {
		if s.Status != "completed" && s.Status != "skipped" {
			return
		}
	}
	p.closed = true
}

func (p *progress) observeRead(args, out string) {
	var a struct{ Path string }
	_ = json.Unmarshal([]byte(args), &a)
	switch {
	case strings.HasSuffix(a.Path, codeFile) && strings.Contains(out, "func List"):
		p.readCode = true
	case strings.HasSuffix(a.Path, testFile) && strings.Contains(out, "func TestHello"):
		p.readTest = true
	}
}

func (p *progress) observeCommand(out string) {
	code, ok := exitCode(out)
	if !ok {
		return // timed out or could not start: run it again
	}
	if code == 127 || strings.Contains(out, "command not found") {
		p.noGo = true
	}
	if !p.edited {
		p.tested, p.testsOK = true, code == 0
		return
	}
	p.verified, p.verifyOK = true, code == 0
}

func (p *progress) observeEdit(out string) {
	if strings.HasPrefix(out, "updated ") {
		p.edited, p.denied = true, false
		return
	}
	// Stale or unmatched: read the file again before another try.
	p.editFails++
	p.readCode = false
}

var exitRE = regexp.MustCompile(`\[exit code (-?\d+)`)

// exitCode finds run_command's "[exit code N, …]" footer.
func exitCode(out string) (int, bool) {
	m := exitRE.FindAllStringSubmatch(out, -1)
	if len(m) == 0 {
		return 0, false
	}
	n, err := strconv.Atoi(m[len(m)-1][1])
	return n, err == nil
}

// planFeedbackPrefix starts the result of a call held back because the
// person asked for changes to the plan (plan.confirm).
const planFeedbackPrefix = "not run: the user reviewed your plan"

// checkpointMark starts the agent's cadence checkpoint message.
const checkpointMark = "[Checkpoint:"

// injectedPrefixes start the messages keel's discipline and loop inject
// as user messages; anything else from the user is a prompt.
var injectedPrefixes = []string{
	"Your plan still has open steps", "You changed ", "Note: ", "Progress check:",
	"You have made this exact call", "Your answer was cut off", "Replanning, attempt",
	"keel stopped a loop", "The user's guidance", "[keel compacted",
}

func injected(s string) bool {
	if strings.Contains(s, checkpointMark) {
		return true
	}
	for _, pre := range injectedPrefixes {
		if strings.HasPrefix(s, pre) {
			return true
		}
	}
	return strings.Contains(s, "has failed") && strings.Contains(s, "times in a row")
}
