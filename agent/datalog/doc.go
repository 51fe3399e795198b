// Package datalog is keel's turn datalog: a SQLite store (modernc.org/sqlite) of sessions, rounds, messages, tool calls, interventions, plans, state transitions and file changes, with one writer and a read side for keel log and the TUI browser.
package datalog
