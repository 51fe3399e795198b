package datalog

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/keel-dev/keel/agent/llm"
)

// The functions here return copies of the records with every text field
// the writer stores redacted: not only the free text (prompts, results,
// arguments) but names, ids and kinds too, since the model, a tool or the
// user may have written any of them. The one exception is the session
// id: keel makes it, and it keys every row. TestNoSecretInAnyColumn
// fills every field and fails on a column that keeps a secret.

// session redacts a session row.
func (r *redactor) session(s Session) Session {
	s.ProjectRoot, s.Cwd, s.GitBranch = r.String(s.ProjectRoot), r.String(s.Cwd), r.String(s.GitBranch)
	s.Provider, s.Model = r.String(s.Provider), r.String(s.Model)
	s.Config = json.RawMessage(r.String(string(s.Config)))
	s.FirstPrompt, s.StopReason = r.String(s.FirstPrompt), r.String(s.StopReason)
	s.ParentID, s.ParentCallID, s.Agent = r.String(s.ParentID), r.String(s.ParentCallID), r.String(s.Agent)
	return s
}

// message redacts every string of a history entry; the caller marshals
// it afterwards, so the stored JSON is valid.
func (r *redactor) message(m llm.Message) llm.Message {
	m.Role = llm.Role(r.String(string(m.Role)))
	m.Content, m.Reasoning = r.String(m.Content), r.String(m.Reasoning)
	m.ToolCallID, m.Name = r.String(m.ToolCallID), r.String(m.Name)
	if len(m.ToolCalls) > 0 {
		calls := append(m.ToolCalls[:0:0], m.ToolCalls...)
		for i := range calls {
			c := &calls[i]
			c.ID, c.Name, c.Arguments = r.String(c.ID), r.String(c.Name), r.String(c.Arguments)
		}
		m.ToolCalls = calls
	}
	if len(m.Images) > 0 {
		imgs := append(m.Images[:0:0], m.Images...)
		for i := range imgs {
			imgs[i].MIME, imgs[i].SHA256 = r.String(imgs[i].MIME), r.String(imgs[i].SHA256)
		}
		m.Images = imgs
	}
	return m
}

// record redacts a round's rows. The slices are copies: the caller's
// record is left as it was.
func (r *redactor) record(rec RoundRecord) RoundRecord {
	rec.Round.FinishReason = r.String(rec.Round.FinishReason)
	rec.ToolCalls = append([]ToolCall(nil), rec.ToolCalls...)
	for i := range rec.ToolCalls {
		tc := &rec.ToolCalls[i]
		tc.CallID, tc.Name, tc.Arguments = r.String(tc.CallID), r.String(tc.Name), r.String(tc.Arguments)
		tc.Permission, tc.DecidedBy = r.String(tc.Permission), r.String(tc.DecidedBy)
		tc.Progress = r.String(tc.Progress)
		tc.ResultSize = max(tc.ResultSize, len(tc.Result))
		// Redact first, then cap: a cap could cut a secret in two.
		tc.Result = capString(r.String(tc.Result), MaxResultBytes)
	}
	rec.Interventions = append([]Intervention(nil), rec.Interventions...)
	for i := range rec.Interventions {
		iv := &rec.Interventions[i]
		iv.Kind, iv.Message, iv.Reply = r.String(iv.Kind), r.String(iv.Message), r.String(iv.Reply)
		iv.Why, iv.Action = r.String(iv.Why), r.String(iv.Action)
		iv.Figures = json.RawMessage(r.String(string(iv.Figures)))
	}
	rec.Plans = append([]PlanSnapshot(nil), rec.Plans...)
	for i := range rec.Plans {
		p := &rec.Plans[i]
		p.Status, p.Plan = r.String(p.Status), json.RawMessage(r.String(string(p.Plan)))
	}
	rec.Transitions = append([]StateTransition(nil), rec.Transitions...)
	for i := range rec.Transitions {
		st := &rec.Transitions[i]
		st.From, st.To, st.Detail = r.String(st.From), r.String(st.To), r.String(st.Detail)
	}
	rec.FileChanges = append([]FileChange(nil), rec.FileChanges...)
	for i := range rec.FileChanges {
		rec.FileChanges[i] = r.fileChange(rec.FileChanges[i])
	}
	rec.Request, rec.Response = r.Bytes(rec.Request), r.Bytes(rec.Response)
	return rec
}

// fileChange hashes a file change's real contents, then redacts its
// path and contents. A content that held a secret is stored redacted and
// flagged; its hash still lets undo check the file is unchanged, and
// TaskFileChanges refuses to hand undo a redacted content to write.
func (r *redactor) fileChange(fc FileChange) FileChange {
	switch {
	case fc.AfterNotKept:
		fc.After = nil
		fc.BeforeSHA256, fc.AfterSHA256 = sha256Hex(fc.Before), hexSHA(fc.AfterSHA256)
	case len(fc.Splices) == 0:
		fc.BeforeSHA256, fc.AfterSHA256 = sha256Hex(fc.Before), sha256Hex(fc.After)
	default:
		s := r.String(string(fc.Splices)) // a large file's hashes come with its splices
		fc.SplicesRedacted = s != string(fc.Splices)
		fc.Splices = json.RawMessage(s)
		fc.BeforeSHA256, fc.AfterSHA256 = hexSHA(fc.BeforeSHA256), hexSHA(fc.AfterSHA256)
	}
	path := r.String(fc.Path)
	fc.PathRedacted = path != fc.Path
	fc.Path = path
	fc.ToolCallID = r.String(fc.ToolCallID)
	fc.Before, fc.BeforeRedacted = r.Content(fc.Before)
	fc.After, fc.AfterRedacted = r.Content(fc.After)
	return fc
}

// intent redacts a call about to run.
func (r *redactor) intent(in Intent) Intent {
	in.CallID, in.Name, in.Arguments = r.String(in.CallID), r.String(in.Name), r.String(in.Arguments)
	return in
}

// hexSHA keeps s when it is a hex SHA-256 and drops anything else, so a
// caller's hash field can never carry text into the datalog.
func hexSHA(s string) string {
	if _, err := hex.DecodeString(s); err != nil || len(s) != 64 {
		return ""
	}
	return s
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
