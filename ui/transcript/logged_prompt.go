package transcript

import (
	"encoding/json"

	"github.com/keel-dev/keel/ui/attach"
	"github.com/keel-dev/keel/ui/common"
)

// A prompt is stored as it was sent (attach.Compose): the !command
// outputs before it and the mentioned files after it. A resumed
// transcript splits them off again and shows what the user saw: the
// !commands as their entries, the prompt as typed with its chips and the
// line saying what went with it.

// addLoggedPrompt shows a stored prompt as it was shown when it was sent.
func (t *Model) addLoggedPrompt(sent string) {
	text, outs, files := attach.Parse(sent)
	for _, o := range outs {
		t.add(&Entry{kind: kindTool, tool: loggedShell(o)})
	}
	e := t.add(&Entry{kind: kindUser, text: text})
	e.chips, e.attached = attach.Notes(files, outs)
}

// loggedShell is a !command's entry as FinishShell left it; its duration
// was not kept.
func loggedShell(o attach.Output) *toolCall {
	args, _ := json.Marshal(map[string]string{"command": o.Command})
	c := &toolCall{name: "!", args: string(args), user: true, state: toolOK, output: common.Clean(o.Output), exitCode: o.Exit,
		note: shellNote, noDuration: true}
	if o.Exit != nil && *o.Exit != 0 {
		c.state = toolFailed
	}
	return c
}
