package datalog

import (
	"context"
	"database/sql"
	"fmt"
	"math"
)

// maxTranscriptContent caps the contents LoadTranscript loads for one file
// change (before and after together): a larger edit is shown without its
// diff rather than read whole into memory.
const maxTranscriptContent = 1 << 20

// LoadTranscript loads a session as its transcript showed it: every round
// in order with its tool calls, interventions and transitions, each round
// holding only the messages it added. A round that replaced the history
// (a compaction, or the first round after a resume) stores the history
// it kept again; those copies are dropped here, so every message appears
// once, in the round that first added it. A file change a tool made
// carries its contents (up to maxTranscriptContent), for its diff.
func (db *DB) LoadTranscript(ctx context.Context, id string) (*SessionDetail, error) {
	d, err := db.LoadRounds(ctx, id, 1, math.MaxInt32)
	if err != nil {
		return nil, err
	}
	dropRestored(d.Rounds)
	if err := db.fillContents(ctx, id, 1, d.Rounds); err != nil {
		return nil, err
	}
	return d, nil
}

// fillContents loads the contents of the rounds' file changes that a tool
// wrote whole (not a command's, not a large file's splices); the rounds
// start at round first.
func (db *DB) fillContents(ctx context.Context, id string, first int, rounds []*RoundDetail) error {
	byID := map[int64]*FileChange{}
	for _, rd := range rounds {
		for i := range rd.FileChanges {
			byID[rd.FileChanges[i].ID] = &rd.FileChanges[i]
		}
	}
	if len(byID) == 0 {
		return nil
	}
	err := eachRow(ctx, db.reader(ctx), `SELECT id, before, before_enc, after, after_enc FROM file_changes
		WHERE session_id = ? AND round_seq >= ? AND by_command = 0 AND splices = ''
		AND COALESCE(length(before), 0) + COALESCE(length(after), 0) <= ?`, []any{id, first, maxTranscriptContent},
		func(rows *sql.Rows) error {
			var fid int64
			var before, after []byte
			var benc, aenc string
			if err := rows.Scan(&fid, &before, &benc, &after, &aenc); err != nil {
				return err
			}
			fc := byID[fid]
			if fc == nil {
				return nil
			}
			before, err := decodeContent(before, benc, nil)
			if err != nil {
				return nil // the diff is left out, the rest loads
			}
			after, err = decodeContent(after, aenc, before)
			if len(after) == 0 && fc.AfterSHA256 != "" && fc.AfterSHA256 != sha256Hex(nil) {
				return nil // the content after was not kept (a large write): no diff, not a deletion
			}
			if err == nil && len(before)+len(after) <= maxTranscriptContent {
				fc.Before, fc.After = before, after
			}
			return nil
		})
	if err != nil {
		return fmt.Errorf("load file changes of session %s: %w", id, err)
	}
	return nil
}

// dropRestored removes from each history-replacing round the messages
// that repeat the history it replaced (matched by their stored JSON, each
// copy once).
func dropRestored(rounds []*RoundDetail) {
	var epoch []Message // the history as the rounds so far left it
	for _, rd := range rounds {
		if !replacesHistory(rd) {
			epoch = append(epoch, rd.Messages...)
			continue
		}
		seen := make(map[string]int, len(epoch))
		for _, m := range epoch {
			seen[string(m.JSON)]++
		}
		added := rd.Messages[:0:0]
		for _, m := range rd.Messages {
			if seen[string(m.JSON)] > 0 {
				seen[string(m.JSON)]--
				continue
			}
			added = append(added, m)
		}
		epoch = rd.Messages
		rd.Messages = added
	}
}

// replacesHistory reports a round whose messages start a new epoch (the
// writer numbers an epoch by the round that started it).
func replacesHistory(rd *RoundDetail) bool {
	return len(rd.Messages) > 0 && rd.Messages[0].Epoch == rd.Round.Seq && rd.Round.Seq > 0
}
