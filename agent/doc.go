// Package agent runs keel's agent loop: it owns a session's history, streams rounds from the model, runs tools behind the permission gate, applies post-round discipline, logs every round, and emits typed events for the UI and the headless runner.
package agent
