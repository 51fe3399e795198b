package datalog

import (
	"context"
	"database/sql"
)

// wtx is the write transaction an op runs in.
//
// Statements are not cached: a *sql.DB statement needs a second
// connection to prepare while the transaction holds the writer's only
// one, and prepare costs a small share of a round.
type wtx struct {
	tx *sql.Tx
}

// Exec runs a statement in the transaction.
func (t *wtx) Exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return t.tx.ExecContext(ctx, q, args...)
}

// QueryRow runs a one-row query in the transaction.
func (t *wtx) QueryRow(ctx context.Context, q string, args ...any) *sql.Row {
	return t.tx.QueryRowContext(ctx, q, args...)
}
