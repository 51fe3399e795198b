-- 0009: the reasoning loop's records. reflections: one row per answer to a
-- checkpoint (status 'answered' with the model's reflect call, 'unanswered'
-- when the next round brought none, 'unprompted' for a reflect call no
-- checkpoint asked for); checkpoint_round and checkpoint_idx name the
-- checkpoint's interventions row (0 when unprompted). memory_events: the
-- working memory's changes (action 'pin', 'update', 'drop', 'evict'), so a
-- session's notes can be rebuilt and an eviction is on record. Lessons
-- learnt from finished tasks are recall_docs of kind 'lesson'.
CREATE TABLE reflections (
    id               INTEGER PRIMARY KEY,
    session_id       TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    round_seq        INTEGER NOT NULL DEFAULT 0,
    checkpoint_round INTEGER NOT NULL DEFAULT 0,
    checkpoint_idx   INTEGER NOT NULL DEFAULT 0,
    status           TEXT NOT NULL,
    adjustment       TEXT NOT NULL DEFAULT '',
    confidence       REAL NOT NULL DEFAULT 0,
    json             TEXT NOT NULL DEFAULT '',
    at               INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX reflections_session ON reflections (session_id, round_seq);

CREATE TABLE memory_events (
    id         INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    round_seq  INTEGER NOT NULL DEFAULT 0,
    action     TEXT NOT NULL,
    note_id    TEXT NOT NULL DEFAULT '',
    text       TEXT NOT NULL DEFAULT '',
    at         INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX memory_events_session ON memory_events (session_id, id);
