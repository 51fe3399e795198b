-- 0001: the tables of the turn datalog. Times are Unix nanoseconds (UTC),
-- durations are nanoseconds. Child rows cascade when a session is pruned.
CREATE TABLE sessions (
    id            TEXT PRIMARY KEY,
    project_root  TEXT NOT NULL DEFAULT '',
    cwd           TEXT NOT NULL DEFAULT '',
    git_branch    TEXT NOT NULL DEFAULT '',
    provider      TEXT NOT NULL DEFAULT '',
    model         TEXT NOT NULL DEFAULT '',
    config_json   TEXT NOT NULL DEFAULT '',
    first_prompt  TEXT NOT NULL DEFAULT '',
    started_at    INTEGER NOT NULL,
    ended_at      INTEGER,
    stop_reason   TEXT NOT NULL DEFAULT '',
    rounds        INTEGER NOT NULL DEFAULT 0,
    tool_calls    INTEGER NOT NULL DEFAULT 0,
    tokens_in     INTEGER NOT NULL DEFAULT 0,
    tokens_out    INTEGER NOT NULL DEFAULT 0,
    tokens_cached INTEGER NOT NULL DEFAULT 0,
    cost          REAL NOT NULL DEFAULT 0
);

CREATE TABLE rounds (
    session_id       TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq              INTEGER NOT NULL,
    task_seq         INTEGER NOT NULL DEFAULT 0,
    request_messages INTEGER NOT NULL DEFAULT 0,
    request_tokens   INTEGER NOT NULL DEFAULT 0,
    first_token_ns   INTEGER NOT NULL DEFAULT 0,
    duration_ns      INTEGER NOT NULL DEFAULT 0,
    finish_reason    TEXT NOT NULL DEFAULT '',
    tokens_in        INTEGER NOT NULL DEFAULT 0,
    tokens_out       INTEGER NOT NULL DEFAULT 0,
    tokens_cached    INTEGER NOT NULL DEFAULT 0,
    cost             REAL NOT NULL DEFAULT 0,
    retries          INTEGER NOT NULL DEFAULT 0,
    started_at       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;

-- epoch is the round that last replaced the history (compaction); the
-- current history is the rows of the highest epoch.
CREATE TABLE messages (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    round_seq  INTEGER NOT NULL,
    epoch      INTEGER NOT NULL DEFAULT 0,
    json       TEXT NOT NULL,
    PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;

CREATE TABLE tool_calls (
    session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    round_seq   INTEGER NOT NULL,
    idx         INTEGER NOT NULL,
    call_id     TEXT NOT NULL DEFAULT '',
    name        TEXT NOT NULL,
    arguments   TEXT NOT NULL DEFAULT '',
    result      TEXT NOT NULL DEFAULT '',
    result_size INTEGER NOT NULL DEFAULT 0,
    is_error    INTEGER NOT NULL DEFAULT 0,
    duration_ns INTEGER NOT NULL DEFAULT 0,
    permission  TEXT NOT NULL DEFAULT '',
    decided_by  TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (session_id, round_seq, idx)
) WITHOUT ROWID;

CREATE TABLE interventions (
    session_id   TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    round_seq    INTEGER NOT NULL,
    idx          INTEGER NOT NULL,
    kind         TEXT NOT NULL,
    at_tool_call INTEGER NOT NULL DEFAULT 0,
    figures_json TEXT NOT NULL DEFAULT '',
    message      TEXT NOT NULL DEFAULT '',
    reply        TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (session_id, round_seq, idx)
) WITHOUT ROWID;

CREATE TABLE plan_snapshots (
    id         INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    round_seq  INTEGER NOT NULL,
    attempt    INTEGER NOT NULL DEFAULT 0,
    status     TEXT NOT NULL DEFAULT '',
    json       TEXT NOT NULL DEFAULT '',
    at         INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE state_transitions (
    id         INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    round_seq  INTEGER NOT NULL,
    from_state TEXT NOT NULL DEFAULT '',
    to_state   TEXT NOT NULL DEFAULT '',
    detail     TEXT NOT NULL DEFAULT '',
    at         INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE file_changes (
    id           INTEGER PRIMARY KEY,
    session_id   TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    round_seq    INTEGER NOT NULL,
    task_seq     INTEGER NOT NULL DEFAULT 0,
    tool_call_id TEXT NOT NULL DEFAULT '',
    path         TEXT NOT NULL,
    existed      INTEGER NOT NULL DEFAULT 0,
    before       BLOB,
    after        BLOB,
    mode         INTEGER NOT NULL DEFAULT 0,
    undone_at    INTEGER
);

CREATE TABLE bodies (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    round_seq  INTEGER NOT NULL,
    request    BLOB,
    response   BLOB,
    PRIMARY KEY (session_id, round_seq)
) WITHOUT ROWID;
