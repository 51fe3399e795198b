-- 0010: background jobs (run_command with background true): one row per
-- job, written when it starts and again when it ends. Times are Unix
-- nanoseconds; ended_at and exit_code stay NULL while it runs (or when
-- keel died before it ended).
CREATE TABLE jobs (
    session_id   TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    job_id       TEXT NOT NULL,
    command      TEXT NOT NULL DEFAULT '',
    workdir      TEXT NOT NULL DEFAULT '',
    started_at   INTEGER NOT NULL,
    ended_at     INTEGER,
    exit_code    INTEGER,
    stopped_by   TEXT NOT NULL DEFAULT '',
    output_bytes INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (session_id, job_id)
) WITHOUT ROWID;
