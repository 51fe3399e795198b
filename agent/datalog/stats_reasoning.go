package datalog

import (
	"context"
	"database/sql"
)

// CheckpointStats count checkpoints and their answers: how often the
// model answered with reflect, how often it did not, and what it asked
// keel to do.
type CheckpointStats struct {
	Fired       int         `json:"fired"`
	Answered    int         `json:"answered"`
	Unanswered  int         `json:"unanswered"`
	Unprompted  int         `json:"unprompted"` // reflect calls no checkpoint asked for
	Adjustments []ToolCount `json:"adjustments"`
	// MeanConfidence is over the reflections with an answer; 0 when none.
	MeanConfidence float64 `json:"mean_confidence"`
	// InternalErrors are keel's own mistakes recorded (state transitions
	// the table does not allow); a healthy keel has none.
	InternalErrors int `json:"internal_errors"`
}

// checkpointStats computes the checkpoint figures of the sessions in.
func (db *DB) checkpointStats(ctx context.Context, in string, args []any) (CheckpointStats, error) {
	var c CheckpointStats
	q := db.reader(ctx)
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM interventions WHERE kind = 'reflection' AND session_id IN `+in, args...).Scan(&c.Fired); err != nil {
		return c, err
	}
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM state_transitions WHERE detail LIKE 'internal error:%' AND session_id IN `+in, args...).Scan(&c.InternalErrors); err != nil {
		return c, err
	}
	var conf sql.NullFloat64
	if err := q.QueryRowContext(ctx, `SELECT AVG(confidence) FROM reflections WHERE status != 'unanswered' AND session_id IN `+in, args...).Scan(&conf); err != nil {
		return c, err
	}
	c.MeanConfidence = conf.Float64
	err := eachRow(ctx, q, `SELECT status, adjustment, COUNT(*) FROM reflections WHERE session_id IN `+in+`
		GROUP BY status, adjustment ORDER BY status, adjustment`, args, func(rows *sql.Rows) error {
		var status, adj string
		var n int
		if err := rows.Scan(&status, &adj, &n); err != nil {
			return err
		}
		switch status {
		case ReflectionAnswered:
			c.Answered += n
		case ReflectionUnanswered:
			c.Unanswered += n
		case ReflectionUnprompted:
			c.Unprompted += n
		}
		if adj != "" {
			c.Adjustments = addCount(c.Adjustments, adj, n)
		}
		return nil
	})
	return c, err
}

func addCount(list []ToolCount, name string, n int) []ToolCount {
	for i := range list {
		if list[i].Tool == name {
			list[i].Count += n
			return list
		}
	}
	return append(list, ToolCount{Tool: name, Count: n})
}
