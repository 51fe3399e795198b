package datalog

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"strings"

	"github.com/keel-dev/keel/agent/llm"
)

// Kinds of recall documents: what a session's searchable text was.
const (
	RecallPrompt = "prompt" // the prompt that started a task
	RecallAnswer = "answer" // an answer without tool calls
	RecallPlan   = "plan"   // a plan's goal
	RecallCalls  = "calls"  // a round's tool calls, one summary each
)

// maxRecallText caps one document's text: a long answer is indexed by its
// first 16 KB.
const maxRecallText = 16 << 10

// recallScopeSQL is a document's scope, in the writer's insert: one
// token for the session's project (scopeToken in SQL).
const recallScopeSQL = `COALESCE((SELECT 'p' || hex(project_root) FROM sessions WHERE id = ?1), '')`

// scopeToken is the scope of a project's documents: "p" and the hex of
// its root (stored redacted), one FTS5 token.
func scopeToken(root string) string {
	return "p" + strings.ToUpper(hex.EncodeToString([]byte(root)))
}

// maxKeyArg caps the argument shown in a tool call's summary.
const maxKeyArg = 200

// recallDoc is one text recall can find, derived from a round as stored.
type recallDoc struct {
	round, task int
	kind        string
	at          int64
	text        string
}

// roundDocs derives a round's recall documents from its stored (redacted)
// records. The task's prompt is the round's first user message keel did
// not write ("[keel …" marks keel's own); after a history reset (a
// compaction, or a resumed history stored again) the newest one, since
// the history before it was stored already. The writer keeps one prompt
// per task and drops a document whose text the session already has.
func roundDocs(rec RoundRecord, msgs []llm.Message, at int64) []recallDoc {
	r := rec.Round
	if !r.Started.IsZero() {
		at = r.Started.UnixNano()
	}
	var docs []recallDoc
	add := func(kind, text string) {
		if text = strings.TrimSpace(text); text != "" {
			docs = append(docs, recallDoc{round: r.Seq, task: r.TaskSeq, kind: kind, at: at, text: capString(text, maxRecallText)})
		}
	}
	add(RecallPrompt, promptOf(msgs, rec.HistoryReset))
	for _, m := range msgs {
		if m.Role == llm.RoleAssistant && len(m.ToolCalls) == 0 {
			add(RecallAnswer, m.Content)
		}
	}
	for _, p := range rec.Plans {
		add(RecallPlan, planGoal(p.Plan))
	}
	add(RecallCalls, callsSummary(rec.ToolCalls))
	return docs
}

// promptOf is the user's prompt among a round's messages, or "".
func promptOf(msgs []llm.Message, reset bool) string {
	prompt := ""
	for _, m := range msgs {
		if m.Role != llm.RoleUser || llm.FromKeel(m.Content) {
			continue
		}
		if !reset {
			return m.Content
		}
		prompt = m.Content
	}
	return prompt
}

// planGoal is a stored plan's goal, or "" when it has none.
func planGoal(plan json.RawMessage) string {
	var p struct {
		Goal string `json:"goal"`
	}
	if json.Unmarshal(plan, &p) != nil {
		return ""
	}
	return p.Goal
}

// unsummarized are calls recall leaves out: a plan's goal is indexed as
// the plan, and a search's own words would find the search.
var unsummarized = map[string]bool{"update_plan": true, "recall": true}

// callsSummary is one line per call: the tool and its key argument.
func callsSummary(calls []ToolCall) string {
	var lines []string
	for _, c := range calls {
		if !unsummarized[c.Name] {
			lines = append(lines, callSummary(c.Name, c.Arguments))
		}
	}
	return strings.Join(lines, "\n")
}

// keyArgs are the arguments that say what a call was about, most telling
// first; a tool with none of them is summarized by its first string
// argument.
var keyArgs = []string{"command", "pattern", "query", "path", "file_path", "url", "goal", "name"}

// callSummary says what a tool call did in one line: its name and key
// argument, cut to 200 bytes (not its output).
func callSummary(name, args string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(args), &m) != nil {
		return name
	}
	for _, k := range keyArgs {
		if v := stringArg(m[k]); v != "" {
			return name + " " + oneLine(v)
		}
	}
	if v := firstStringArg(args); v != "" {
		return name + " " + oneLine(v)
	}
	return name
}

// stringArg is raw as a string, or "" when it is not one.
func stringArg(raw json.RawMessage) string {
	var s string
	if len(raw) == 0 || json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// firstStringArg is the first top-level string value of a JSON object,
// in the order the model wrote it.
func firstStringArg(args string) string {
	dec := json.NewDecoder(bytes.NewReader([]byte(args)))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	for dec.More() {
		if _, err := dec.Token(); err != nil { // the key
			return ""
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return ""
		}
		if s := stringArg(v); s != "" {
			return s
		}
	}
	return ""
}

// oneLine folds whitespace runs to single spaces and caps the result.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > maxKeyArg {
		return capString(s, maxKeyArg) + "…"
	}
	return s
}

// insertRecall adds the round's documents, each unless the session holds
// the same text of that kind already (a plan's goal restated, a command
// run again, a history stored again), and a prompt only for a task that
// has none.
func (p *preparedRound) insertRecall(ctx context.Context, tx *wtx) error {
	return insertDocs(ctx, tx, p.rec.Round.SessionID, p.recall)
}

// insertDocs adds the documents sid does not hold yet. Which it holds
// the writer knows (docSet, read once a session), so a document seen
// before costs no statement: most rounds' tool calls repeat earlier ones.
func insertDocs(ctx context.Context, tx *wtx, sid string, docs []recallDoc) error {
	if len(docs) == 0 {
		return nil
	}
	held, err := tx.recallDocs(ctx, sid)
	if err != nil {
		return err
	}
	for _, d := range docs {
		if !held.add(sid, d) {
			continue
		}
		if _, err := tx.exec(ctx, stInsertRecall, sid, d.round, d.task, d.kind, d.at, d.text); err != nil {
			return err
		}
	}
	return nil
}
