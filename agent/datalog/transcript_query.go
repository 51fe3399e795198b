package datalog

import (
	"context"
	"math"
)

// LoadTranscript loads a session as its transcript showed it: every round
// in order with its tool calls, interventions and transitions, each round
// holding only the messages it added. A round that replaced the history
// (a compaction, or the first round after a resume) stores the history
// it kept again; those copies are dropped here, so every message appears
// once, in the round that first added it.
func (db *DB) LoadTranscript(ctx context.Context, id string) (*SessionDetail, error) {
	d, err := db.LoadRounds(ctx, id, 1, math.MaxInt32)
	if err != nil {
		return nil, err
	}
	dropRestored(d.Rounds)
	return d, nil
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
