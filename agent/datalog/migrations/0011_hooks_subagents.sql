-- 0011: hooks and subagents. hook_runs: one row per hook command run: the
-- event, the matcher and command as configured, the tool call it ran for,
-- its exit code (-1 when it did not exit by itself), duration, whether it
-- timed out, and what it decided (block, allow, ask, error) and why.
-- sessions.parent_id and parent_call_id link a subagent's session to the
-- session and the task call that started it; agent names the subagent.
CREATE TABLE hook_runs (
    id           INTEGER PRIMARY KEY,
    session_id   TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    round_seq    INTEGER NOT NULL DEFAULT 0,
    event        TEXT NOT NULL,
    matcher      TEXT NOT NULL DEFAULT '',
    command      TEXT NOT NULL,
    tool         TEXT NOT NULL DEFAULT '',
    call_id      TEXT NOT NULL DEFAULT '',
    exit_code    INTEGER NOT NULL DEFAULT 0,
    duration_ns  INTEGER NOT NULL DEFAULT 0,
    timed_out    INTEGER NOT NULL DEFAULT 0,
    decision     TEXT NOT NULL DEFAULT '',
    reason       TEXT NOT NULL DEFAULT '',
    at           INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX hook_runs_session ON hook_runs (session_id, id);

ALTER TABLE sessions ADD COLUMN parent_id TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN parent_call_id TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN agent TEXT NOT NULL DEFAULT '';
CREATE INDEX sessions_parent ON sessions (parent_id) WHERE parent_id != '';
