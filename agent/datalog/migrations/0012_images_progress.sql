-- 0012: images stored once each under their SHA-256 (a message's JSON
-- holds only the reference: type, size, hash), the sessions that use
-- them (an image no session uses is pruned), and the progress reports of
-- the tool calls that made any (a JSON array per call).
CREATE TABLE images (
    sha256    TEXT PRIMARY KEY,
    mime      TEXT NOT NULL,
    width     INTEGER NOT NULL DEFAULT 0,
    height    INTEGER NOT NULL DEFAULT 0,
    size      INTEGER NOT NULL,
    data      BLOB NOT NULL,
    stored_at INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE session_images (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    sha256     TEXT NOT NULL,
    PRIMARY KEY (session_id, sha256)
) WITHOUT ROWID;

CREATE TABLE tool_progress (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    round_seq  INTEGER NOT NULL,
    idx        INTEGER NOT NULL,
    json       TEXT NOT NULL,
    PRIMARY KEY (session_id, round_seq, idx)
) WITHOUT ROWID;
