package transcript

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/internal/lazyre"
	"github.com/keel-dev/keel/tools"
	"github.com/keel-dev/keel/ui/common"
)

// LoadLog fills the transcript from the datalog's record of a resumed
// session, as it looked live: each call with its recorded outcome
// (denied, failed with its duration, or done), the cards discipline
// showed with the model's answers, and how each task stopped. Messages
// keel sent on the model's behalf (a checkpoint's prompt, a reminder)
// are not user turns: live they showed as their card, or not at all.
func (t *Model) LoadLog(d *datalog.SessionDetail) {
	b := logReplay{t: t, root: d.Session.ProjectRoot, cardsAt: map[[2]int]*Entry{}}
	if d.Tail && len(d.Rounds) > 0 {
		t.Notice("loading the earlier rounds of this session…")
		b.task, b.prompted = d.Rounds[0].Round.TaskSeq, true // the tail starts inside a task: its prompt is above
	}
	for i, rd := range d.Rounds {
		last := i == len(d.Rounds)-1 || d.Rounds[i+1].Round.TaskSeq != rd.Round.TaskSeq
		b.round(rd, last)
	}
	for _, in := range d.Unfinished { // killed while it ran: no round holds it
		tc := &toolCall{id: in.CallID, name: common.Clean(in.Name), args: common.Clean(in.Arguments), state: toolFailed, output: datalog.UnknownOutcome}
		t.add(&Entry{kind: kindTool, tool: tc})
	}
}

// Replay builds the entries of a session's record (LoadLog) without
// drawing them: the root model runs it in a Cmd and puts the result in
// place with ReplaceRange.
func Replay(d *datalog.SessionDetail) []*Entry {
	t := newModel(nil)
	t.LoadLog(d)
	return t.entries
}

// logReplay turns rounds into entries, remembering which task's prompt
// it has shown.
type logReplay struct {
	t        *Model
	root     string // the project's root, which diffs name paths from
	task     int
	prompted bool
	cardsAt  map[[2]int]*Entry   // checkpoint cards by round and index, for their reflections
	replies  map[string]bool     // the previous round's card replies: live, that answer was folded into its card
	images   map[string][]string // the round's calls' pictures, by call id
}

// round adds one round's entries: its messages, then its cards, then how
// the task stopped when this is the task's last round (last).
func (b *logReplay) round(rd *datalog.RoundDetail, last bool) {
	if rd.Round.TaskSeq != b.task {
		b.task, b.prompted = rd.Round.TaskSeq, false
	}
	results := map[string]string{}
	for _, m := range rd.Messages {
		if m.Msg.Role == llm.RoleTool {
			results[m.Msg.ToolCallID] = m.Msg.Content
			b.images = addImages(b.images, m.Msg)
		}
	}
	for _, m := range rd.Messages {
		switch m.Msg.Role {
		case llm.RoleUser:
			if strings.HasPrefix(m.Msg.Content, llm.CompactedMark) {
				continue // a compaction's summary, which stands for what the transcript already shows
			}
			if note, ok := strings.CutPrefix(m.Msg.Content, llm.NoteMark); ok {
				b.t.Notice(strings.TrimSpace(note)) // keel's own word to the model (an undo since the last answer), not a prompt
				continue
			}
			if !b.prompted { // the task's prompt; later ones were keel's
				b.prompted = true
				b.t.addLoggedPrompt(m.Msg.Content)
			}
		case llm.RoleAssistant:
			b.assistant(m.Msg, rd, results)
		}
	}
	b.replies = nil
	b.cards(rd, last)
	b.reflections(rd.Reflections)
	if last {
		b.stopped(rd.Transitions)
	}
}

func (b *logReplay) assistant(msg llm.Message, rd *datalog.RoundDetail, results map[string]string) {
	t := b.t
	if strings.TrimSpace(msg.Reasoning) != "" {
		t.add(&Entry{kind: kindReasoning, text: msg.Reasoning})
	}
	if strings.TrimSpace(msg.Content) != "" && !(len(msg.ToolCalls) > 0 && b.replies[strings.TrimSpace(msg.Content)]) {
		t.add(&Entry{kind: kindAssistant, text: msg.Content}) // a checkpoint's reply shows on its card only
	}
	for i, c := range msg.ToolCalls {
		tc := &toolCall{id: c.ID, name: common.Clean(c.Name), args: common.Clean(c.Arguments)}
		out, answered := results[c.ID]
		row := callRow(rd.ToolCalls, i, c.ID)
		loggedOutcome(tc, row, out, answered)
		tc.images = b.images[c.ID]
		if row != nil && !row.IsError {
			tc.diff = common.Clean(b.diff(rd.FileChanges, c.ID))
		}
		t.add(&Entry{kind: kindTool, tool: tc})
		if row != nil && datalog.ByUser(row.DecidedBy) { // the dialog's answer, noted as it was live
			t.Notice(userAnswer(tc.name, row))
		}
	}
}

// userAnswer is the note the permission dialog left: "denied
// run_command" with the reason the user typed, "allowed run_command
// once" or "allowed for this session: PATTERN".
func userAnswer(tool string, row *datalog.ToolCall) string {
	if row.Permission != "deny" {
		return common.Clean(datalog.UserAllowed(tool, row.DecidedBy))
	}
	reason := strings.TrimPrefix(common.Clean(row.Result), "permission denied: ")
	if reason == "" || reason == "the user denied this call" {
		return "denied " + tool
	}
	return "denied " + tool + ": " + reason
}

// callRow finds the recorded call: by its id, else by its position (ids
// a server reuses).
func callRow(rows []datalog.ToolCall, i int, id string) *datalog.ToolCall {
	for j := range rows {
		if rows[j].CallID == id && (rows[j].Index == i || !idTwice(rows, id)) {
			return &rows[j]
		}
	}
	return nil
}

func idTwice(rows []datalog.ToolCall, id string) bool {
	n := 0
	for _, r := range rows {
		if r.CallID == id {
			n++
		}
	}
	return n > 1
}

// loggedOutcome sets a call's outcome from its row, as FinishTool did
// live; out is the result the model got (answered: there was one).
func loggedOutcome(tc *toolCall, row *datalog.ToolCall, out string, answered bool) {
	if row == nil { // no row: the round's tools never finished
		tc.state, tc.output = toolFailed, common.Clean(out)
		if !answered {
			tc.output = datalog.InterruptedResult
		}
		return
	}
	if !answered {
		out = row.Result
	}
	tc.output, tc.duration = common.Clean(out), row.Duration
	switch {
	case row.Permission == "deny":
		tc.state, tc.denyReason = toolDenied, tc.output
	case row.IsError:
		tc.state = toolFailed
	default:
		tc.state = toolOK
	}
	tc.exitCode = exitCodeOf(row.Name, row.Result)
}

// exitCodeRe is the last line run_command ends its output with.
var exitCodeRe = lazyre.New(`\[exit code (-?\d+), [0-9.]+s\]\s*$`)

// exitCodeOf reads a command's exit code back from its output (the
// datalog keeps the output, not the code).
func exitCodeOf(tool, output string) *int {
	if tool != tools.NameRunCommand {
		return nil
	}
	m := exitCodeRe().FindStringSubmatch(output)
	if m == nil {
		return nil
	}
	code, err := strconv.Atoi(m[1])
	if err != nil {
		return nil
	}
	return &code
}

// cards adds the round's interventions as the cards they were. A
// checkpoint's reason is its transition's detail; the datalog does not
// keep a guard's, nor its action, which is told by what followed: a
// message sent is an inject, a task that stopped here a halt, else the
// user was asked and went on.
func (b *logReplay) cards(rd *datalog.RoundDetail, last bool) {
	var whys []string
	for _, tr := range rd.Transitions {
		if tr.To == string(agent.StateReflecting) {
			whys = append(whys, tr.Detail)
		}
	}
	for _, iv := range rd.Interventions {
		in := agent.Intervention{Kind: common.Clean(iv.Kind), AtToolCall: iv.AtToolCall, Message: common.Clean(iv.Message), Reply: common.Clean(iv.Reply),
			Why: common.Clean(iv.Why), Action: common.Clean(iv.Action)}
		_ = json.Unmarshal(iv.Figures, &in.Figures)
		if in.Kind == "reflection" && len(whys) > 0 {
			if in.Why == "" { // a row from before migration 0007
				in.Why = common.Clean(whys[0])
			}
			whys = whys[1:]
		}
		switch {
		case in.Action != "":
		case in.Message != "":
			in.Action = "inject"
		case last:
			in.Action = "halt"
		default:
			in.Action = "ask"
		}
		e := b.t.add(&Entry{kind: kindCard, card: &in, settled: true}) // its task has ended
		b.cardsAt[[2]int{rd.Round.Seq, iv.Index}] = e
		if in.Reply != "" {
			if b.replies == nil {
				b.replies = map[string]bool{}
			}
			b.replies[strings.TrimSpace(in.Reply)] = true
		}
	}
}

// reflections puts the round's checkpoint answers (reflect calls, or that
// none came) on the cards of the checkpoints they answer.
func (b *logReplay) reflections(rs []datalog.Reflection) {
	for _, r := range rs {
		e := b.cardsAt[[2]int{r.CheckpointRound, r.CheckpointIndex}]
		if e == nil {
			continue
		}
		var rf agent.Reflection
		switch {
		case r.Status == datalog.ReflectionUnanswered:
			e.cardNote = "the next round started without a reply"
		case len(r.JSON) > 0 && json.Unmarshal(r.JSON, &rf) == nil:
			e.refl = &rf
		}
	}
}

// stopped says how a task ended, as the root model's taskStopped did live
// (the stop's message is not kept: its reason is).
func (b *logReplay) stopped(trs []datalog.StateTransition) {
	for _, tr := range trs {
		switch agent.State(tr.To) {
		case agent.StateHalted, agent.StateFailed:
		default:
			continue
		}
		reason := agent.StopReason(tr.Detail)
		switch reason {
		case agent.StopCancelled:
			b.t.Notice("cancelled — the task stopped; type a new prompt to go on")
		case agent.StopProviderError:
			b.t.ErrorCard(common.Clean(tr.Detail) + " — check the provider in `keel config` or try again")
		default:
			b.t.ErrorCard(common.Clean(tr.Detail) + " — send a prompt to continue, or /log to see what happened")
		}
	}
}
