package datalog

import (
	"context"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/keel-dev/keel/agent/llm"
)

// preparedRound is a RoundRecord made ready for SQL in the caller's
// goroutine: redacted, marshalled and copied, so the writer only inserts.
type preparedRound struct {
	rec      RoundRecord
	messages []string
	bodies   bool
	recall   []recallDoc // the round's texts for recall, as stored
	images   []storedImage
	at       int64           // when it was prepared: the recall documents' time
	files    []encodedChange // rec.FileChanges' contents as stored
}

// WriteRound commits one round with everything it produced in one
// transaction and returns once it is committed (WAL, no fsync per round).
// On a *WriteError the round is kept in memory and retried with the next
// write; do not modify rec's slices afterwards.
func (db *DB) WriteRound(ctx context.Context, rec RoundRecord) error {
	p, err := db.prepareRound(rec)
	if err != nil {
		return err
	}
	return db.submit(ctx, roundName(rec), p.insert)
}

// QueueRound is WriteRound that does not wait: the round is handed to the
// writer, and wait returns what WriteRound would have once it is
// committed. Every read through db, and every later write, sees it. The
// agent builds its next request meanwhile and waits before sending it, so
// a round is in SQLite before the next request leaves. Do not modify
// rec's slices afterwards.
func (db *DB) QueueRound(ctx context.Context, rec RoundRecord) (wait func() error) {
	p, err := db.prepareRound(rec)
	if err != nil {
		return func() error { return err }
	}
	return db.queue(ctx, roundName(rec), p.insert)
}

func roundName(rec RoundRecord) string {
	return fmt.Sprintf("round %d of session %s", rec.Round.Seq, rec.Round.SessionID)
}

func (db *DB) prepareRound(rec RoundRecord) (*preparedRound, error) {
	if !db.opts.CaptureBodies {
		rec.Request, rec.Response = nil, nil // not stored: not worth redacting
	}
	red := db.red.forRound()
	p := &preparedRound{rec: red.record(rec), bodies: db.opts.CaptureBodies}
	stored := make([]llm.Message, 0, len(rec.Messages))
	for _, m := range rec.Messages {
		rm := red.message(m)
		b, err := json.Marshal(rm)
		if err != nil {
			return nil, fmt.Errorf("encode message for the datalog: %w", err)
		}
		p.messages, stored = append(p.messages, string(b)), append(stored, rm)
	}
	p.at = nanos(db.opts.Now())
	p.recall = roundDocs(p.rec, stored, p.at)
	p.images = roundImages(rec.Messages)
	p.files = make([]encodedChange, len(p.rec.FileChanges))
	for i, fc := range p.rec.FileChanges {
		if fc.JournalID != 0 { // its row has the content before; encoded again only if the row is gone
			p.files[i] = encodeAfterOnly(fc)
		} else {
			p.files[i] = encodeChange(fc)
		}
	}
	return p, nil
}

// capString cuts s to at most n bytes on a UTF-8 boundary.
func capString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func (p *preparedRound) insert(ctx context.Context, tx *wtx) error {
	steps := []func(context.Context, *wtx) error{
		p.insertRound, p.insertMessages, p.insertToolCalls, p.insertInterventions,
		p.insertPlans, p.insertTransitions, p.insertFileChanges, p.insertBodies, p.addTotals,
		p.deleteIntents, p.insertRecall, p.insertImages,
	}
	for _, step := range steps {
		if err := step(ctx, tx); err != nil {
			return err
		}
	}
	return nil
}

func (p *preparedRound) insertRound(ctx context.Context, tx *wtx) error {
	r := p.rec.Round
	_, err := tx.exec(ctx, stInsertRound,
		r.SessionID, r.Seq, r.TaskSeq, r.RequestMessages, r.RequestTokens, int64(r.FirstToken),
		int64(r.Duration), r.FinishReason, r.TokensIn, r.TokensOut, r.TokensCached, r.Cost, r.Retries,
		nanos(r.Started))
	return err
}

// insertMessages appends after the session's last message. A history
// reset starts a new epoch numbered by this round. The session's last
// seq and epoch come from the writer's cache (tx.counter); the first
// write of a session in this process reads them from the database.
func (p *preparedRound) insertMessages(ctx context.Context, tx *wtx) error {
	if len(p.messages) == 0 {
		return nil
	}
	sid := p.rec.Round.SessionID
	c, err := tx.counter(ctx, sid) // the writer's: updated in place
	if err != nil {
		return err
	}
	epoch := c.epoch
	if p.rec.HistoryReset {
		epoch = p.rec.Round.Seq
	}
	rows := make([][]any, len(p.messages))
	for i, m := range p.messages {
		rows[i] = []any{sid, c.seq + 1 + i, p.rec.Round.Seq, epoch, m}
	}
	if err := tx.insertRows(ctx, messageInserts, rows); err != nil {
		return err
	}
	c.seq += len(p.messages)
	// What MAX(seq) and MAX(epoch) now answer.
	c.epoch = max(c.epoch, epoch)
	return nil
}

func (p *preparedRound) insertToolCalls(ctx context.Context, tx *wtx) error {
	for i, tc := range p.rec.ToolCalls {
		_, err := tx.exec(ctx, stInsertToolCall,
			p.rec.Round.SessionID, p.rec.Round.Seq, i, tc.CallID, tc.Name, tc.Arguments, tc.Result,
			tc.ResultSize, tc.IsError, int64(tc.Duration), tc.Permission, tc.DecidedBy, tc.Verified)
		if err != nil {
			return err
		}
		if tc.Progress != "" {
			if _, err := tx.Exec(ctx, `INSERT INTO tool_progress (session_id, round_seq, idx, json) VALUES (?, ?, ?, ?)`,
				p.rec.Round.SessionID, p.rec.Round.Seq, i, tc.Progress); err != nil {
				return err
			}
		}
	}
	return nil
}

func (p *preparedRound) insertInterventions(ctx context.Context, tx *wtx) error {
	for i, iv := range p.rec.Interventions {
		_, err := tx.exec(ctx, stInsertIntervention,
			p.rec.Round.SessionID, p.rec.Round.Seq, i, iv.Kind, iv.AtToolCall, string(iv.Figures),
			iv.Message, iv.Reply, iv.Why, iv.Action)
		if err != nil {
			return err
		}
	}
	return nil
}

func (p *preparedRound) insertPlans(ctx context.Context, tx *wtx) error {
	for _, ps := range p.rec.Plans {
		_, err := tx.exec(ctx, stInsertPlan,
			p.rec.Round.SessionID, p.rec.Round.Seq, ps.Attempt, ps.Status, string(ps.Plan), nanos(ps.At))
		if err != nil {
			return err
		}
	}
	return nil
}

func (p *preparedRound) insertTransitions(ctx context.Context, tx *wtx) error {
	rows := make([][]any, len(p.rec.Transitions))
	for i, st := range p.rec.Transitions {
		rows[i] = []any{p.rec.Round.SessionID, p.rec.Round.Seq, st.From, st.To, st.Detail, nanos(st.At)}
	}
	return tx.insertRows(ctx, transitionInserts, rows)
}

func (p *preparedRound) insertFileChanges(ctx context.Context, tx *wtx) error {
	sid, round := p.rec.Round.SessionID, p.rec.Round.Seq
	for i, fc := range p.rec.FileChanges {
		task := fc.TaskSeq
		if task == 0 {
			task = p.rec.Round.TaskSeq
		}
		enc := p.files[i]
		if fc.JournalID != 0 {
			done, err := completeJournaled(ctx, tx, sid, round, task, fc, enc)
			if err != nil {
				return err
			}
			if done {
				continue
			}
			enc = encodeChange(fc)
		}
		_, err := tx.exec(ctx, stInsertFileChange,
			sid, round, task, fc.ToolCallID, fc.Path, fc.Existed,
			enc.before, enc.beforeEnc, enc.after, enc.afterEnc, int64(fc.Mode), fc.BeforeSHA256, fc.AfterSHA256,
			fc.PathRedacted, fc.BeforeRedacted, fc.AfterRedacted, fc.ByCommand, string(fc.Splices), fc.SplicesRedacted)
		if err != nil {
			return err
		}
	}
	return dropJournaled(ctx, tx, sid, p.rec.DropJournal)
}

func (p *preparedRound) insertBodies(ctx context.Context, tx *wtx) error {
	if !p.bodies || (len(p.rec.Request) == 0 && len(p.rec.Response) == 0) {
		return nil
	}
	_, err := tx.exec(ctx, stInsertBody, p.rec.Round.SessionID, p.rec.Round.Seq, p.rec.Request, p.rec.Response)
	return err
}

// addTotals keeps the session's sums current, so a session that never
// ends (crash) still lists its figures.
func (p *preparedRound) addTotals(ctx context.Context, tx *wtx) error {
	r := p.rec.Round
	_, err := tx.exec(ctx, stAddTotals,
		len(p.rec.ToolCalls), r.TokensIn, r.TokensOut, r.TokensCached, r.Cost, r.SessionID)
	return err
}

// deleteIntents drops the round's intents, when it has any: its
// tool_calls rows now tell what each call did.
func (p *preparedRound) deleteIntents(ctx context.Context, tx *wtx) error {
	sid, seq := p.rec.Round.SessionID, p.rec.Round.Seq
	rounds, err := tx.intentRounds(ctx, sid)
	if err != nil || !rounds[seq] {
		return err
	}
	if _, err := tx.exec(ctx, stDeleteIntents, sid, seq); err != nil {
		return err
	}
	delete(rounds, seq)
	return nil
}
