package evaltest

import (
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/keel-dev/keel/agent"

	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/cmd/keel/eval"
)

// Kind names a scripted model's way of drifting.
type Kind string

// The kinds of scripted models.
const (
	Good     Kind = "good"
	Rereader Kind = "rereader"
	Retrier  Kind = "retrier"
	Wanderer Kind = "wanderer"
)

// Model is a scripted model of one kind for the bundled suite. It keeps
// no state and is safe for concurrent use.
type Model struct {
	kind  Kind
	tasks []*eval.Task
}

// New returns the model of kind; it knows the bundled suite's tasks.
func New(kind Kind) (*Model, error) {
	switch kind {
	case Good, Rereader, Retrier, Wanderer:
	default:
		return nil, fmt.Errorf("no scripted model %q", kind)
	}
	tasks, err := eval.Suite()
	if err != nil {
		return nil, err
	}
	return &Model{kind: kind, tasks: tasks}, nil
}

// Kind is the model's kind.
func (m *Model) Kind() Kind { return m.kind }

// Reply is one answer: text, a tool call, or both; Reflect, when set,
// answers a structured checkpoint before the call.
type Reply struct {
	Text    string
	Call    *llm.ToolCall
	Reflect *llm.ToolCall
}

// calls are the reply's tool calls in order.
func (r Reply) calls() []llm.ToolCall {
	var out []llm.ToolCall
	if r.Reflect != nil {
		out = append(out, *r.Reflect)
	}
	if r.Call != nil {
		out = append(out, *r.Call)
	}
	return out
}

// conversation is what a model reads from the messages.
type conversation struct {
	task    *eval.Task
	seed    uint64
	calls   int    // tool calls the model made so far, reflect calls left out
	notes   []int  // for each note from keel, the calls made before it
	lessons string // the lessons keel offered with the prompt, if any
	reflect bool   // the last message is a checkpoint asking for a reflect call
}

// read parses the messages: the first user message is the prompt; every
// later user message is a note from keel.
func (m *Model) read(msgs []llm.Message) conversation {
	var c conversation
	h := fnv.New64a()
	h.Write([]byte(m.kind))
	prompt := false
	for _, msg := range msgs {
		switch msg.Role {
		case llm.RoleSystem:
			h.Write([]byte(msg.Content))
		case llm.RoleAssistant:
			for _, tc := range msg.ToolCalls {
				if tc.Name != agent.ReflectToolName {
					c.calls++
				}
			}
		case llm.RoleUser:
			switch {
			case !prompt:
				prompt, c.task = true, m.taskFor(msg.Content)
			case strings.HasPrefix(msg.Content, agent.LessonsMark):
				c.lessons = msg.Content
			default:
				c.notes = append(c.notes, c.calls)
			}
		}
	}
	if n := len(msgs); n > 0 && msgs[n-1].Role == llm.RoleUser && strings.Contains(msgs[n-1].Content, "reflect tool call") {
		c.reflect = true
	}
	c.seed = h.Sum64()
	return c
}

func (m *Model) taskFor(prompt string) *eval.Task {
	for _, t := range m.tasks {
		if t.Prompt == prompt {
			return t
		}
	}
	return nil
}

// Next decides the answer to a request from its messages alone.
func (m *Model) Next(msgs []llm.Message) Reply {
	c := m.read(msgs)
	if c.task == nil {
		return Reply{Text: "This is not a task of the bundled suite; a scripted model cannot help with it."}
	}
	r := m.next(c)
	if c.reflect {
		r.Reflect = reflectCall(c)
	}
	return r
}

// next is the reply before any reflect call.
func (m *Model) next(c conversation) Reply {
	ref := c.task.Reference.Steps
	d := m.drift(c)
	end, heeded := d.end(c.notes)
	n := c.calls
	switch {
	case n < d.start:
		return call(n, ref[n])
	case n < end:
		return call(n, d.step(n-d.start))
	}
	r := Reply{}
	if heeded && n == end {
		r.Text = fmt.Sprintf("Noted: I stop %s and go on with the task.", d.what)
	}
	if i := d.start + n - end; i < len(ref) {
		r.Call = call(n, ref[i]).Call
		return r
	}
	r.Text = joinText(r.Text, c.task.Reference.Answer)
	return r
}

func call(n int, s eval.Step) Reply {
	return Reply{Call: &llm.ToolCall{ID: fmt.Sprintf("call_%d", n+1), Name: s.Tool, Arguments: string(s.Args)}}
}

func joinText(a, b string) string {
	if a == "" {
		return b
	}
	return a + " " + b
}

// reflectCall answers a structured checkpoint: on course (the note that
// asked for it also ends a drift), so the adjustment is continue.
func reflectCall(c conversation) *llm.ToolCall {
	args := fmt.Sprintf(`{"progress":"%d calls into the task","evidence":["the last calls"],"next_action":"the next step of the task","confidence":0.6,"adjustment":"continue"}`, c.calls)
	return &llm.ToolCall{ID: fmt.Sprintf("reflect_%d", c.calls+1), Name: agent.ReflectToolName, Arguments: args}
}
