-- 0002: indexes for the read side (keel log, resume, undo) and for the
-- cascading deletes of prune.
CREATE INDEX sessions_started ON sessions (started_at DESC, id DESC);
CREATE INDEX sessions_project ON sessions (project_root, started_at DESC);
CREATE INDEX messages_epoch ON messages (session_id, epoch, seq);
CREATE INDEX plan_snapshots_session ON plan_snapshots (session_id, round_seq);
CREATE INDEX state_transitions_session ON state_transitions (session_id, round_seq);
CREATE INDEX file_changes_task ON file_changes (session_id, task_seq);
