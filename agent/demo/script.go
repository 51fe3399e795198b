package demo

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/keel-dev/keel/agent/llm"
)

// The example project's files the story works on.
const (
	codeFile = "greet/greet.go"
	testFile = "greet/greet_test.go"
	testCmd  = "go test ./..."
)

// reply is one scripted answer: what to stream, and the calls to make.
type reply struct {
	reasoning string
	text      string
	calls     []call
}

// call is a tool call before its arguments are encoded.
type call struct {
	name string
	args any
}

// answer decides the next reply from the request's messages; headless
// drops the tour of the screen.
func answer(msgs []llm.Message, headless bool) reply {
	p := readProgress(msgs)
	p.headless = headless
	r := p.next()
	switch last := lastUser(msgs); {
	case strings.Contains(last, checkpointMark) && strings.Contains(last, "reflect tool call"):
		r = withReflect(p, r) // structured reflection
	case strings.Contains(last, checkpointMark):
		r = withCheckpointAnswer(p, r)
	}
	return r
}

// lastUser is the last message's text when a user (or keel) wrote it.
func lastUser(msgs []llm.Message) string {
	if len(msgs) == 0 || msgs[len(msgs)-1].Role != llm.RoleUser {
		return ""
	}
	return msgs[len(msgs)-1].Content
}

// next is the story's next step: each case is the first thing not yet done.
func (p progress) next() reply {
	switch {
	case p.extra:
		return reply{text: demoOverText}
	case p.answered:
		return reply{text: p.afterword()}
	case !p.planned || !p.listed:
		return p.startReply()
	case !p.readCode || !p.readTest:
		return p.readReply()
	case !p.tested:
		return reply{text: p.lead(testIntro), calls: []call{planCall(p, 1), runTests()}}
	case p.closed:
		return reply{text: p.finalAnswer()}
	case p.testsOK || p.denied || (p.editFails >= 2 && !p.edited):
		return p.closeReply()
	case !p.edited:
		return reply{text: p.lead(p.editIntro()), calls: []call{planCall(p, 2), editCall()}}
	case !p.verified && !p.noGo:
		return reply{text: p.lead(verifyIntro), calls: []call{runTests()}}
	}
	return p.closeReply()
}

// lead prefixes a reply's text when the person interrupted the story.
func (p progress) lead(text string) string {
	switch {
	case p.resumed:
		return "Picking up the demo where it stopped. " + text
	case p.feedback:
		return feedbackLead + text
	}
	return text
}

func (p progress) startReply() reply {
	r := reply{text: p.lead(listIntro), calls: []call{{"list_dir", map[string]string{"path": "."}}}}
	if !p.planned {
		r.reasoning, r.text = startReasoning, p.lead(startIntro)
		r.calls = append([]call{planCall(p, 0)}, r.calls...)
	}
	return r
}

func (p progress) readReply() reply {
	var calls []call
	if !p.readCode {
		calls = append(calls, call{"read_file", map[string]string{"path": codeFile}})
	}
	if !p.readTest {
		calls = append(calls, call{"read_file", map[string]string{"path": testFile}})
	}
	text := readIntro
	if p.editFails > 0 {
		text = rereadIntro
	}
	return reply{text: p.lead(text), calls: calls}
}

func (p progress) editIntro() string {
	switch {
	case p.retry:
		return retryIntro
	case p.noGo:
		return noGoEditIntro
	case p.testDenied:
		return testDeniedEditIntro
	}
	return editIntro
}

func (p progress) closeReply() reply {
	text := closeIntro
	switch {
	case p.denied:
		text = deniedCloseIntro
	case p.testsOK:
		text = passedCloseIntro
	case p.editFails >= 2 && !p.edited:
		text = failedEditCloseIntro
	case p.verifyDenied:
		text = verifyDeniedCloseIntro
	case p.verified && !p.verifyOK:
		text = stillFailsCloseIntro
	case p.noGo:
		text = noGoCloseIntro
	}
	return reply{text: p.lead(text), calls: []call{closingPlanCall(p)}}
}

func runTests() call {
	return call{"run_command", map[string]any{"command": testCmd, "timeout_seconds": 120}}
}

// The fix: List must join every name but the last.
const (
	buggyLine = `	return strings.Join(names[:len(names)-2], ", ") + " and " + names[len(names)-1]`
	fixedLine = `	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]`
)

func editCall() call {
	return call{"edit_file", map[string]string{"path": codeFile, "old_string": buggyLine, "new_string": fixedLine}}
}

// encode renders a call's arguments as the JSON a model would send.
func (c call) encode() string {
	data, err := json.Marshal(c.args)
	if err != nil {
		panic(fmt.Sprintf("demo: encode %s arguments: %v", c.name, err)) // static values: a bug
	}
	return string(data)
}
