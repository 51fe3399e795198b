-- 0006: recall, the full-text index of past sessions. recall_docs holds
-- the searchable texts the writer derives from each round, as stored
-- (redacted): kind 'prompt' (what the user asked), 'answer' (a final
-- answer), 'plan' (a plan's goal) and 'calls' (one line per tool call:
-- the tool and its key argument). at is Unix nanoseconds. scope is one
-- token naming the session's project ('p' || hex(project_root)), so a
-- search within a project is one more term FTS5 intersects, not a filter
-- over every match. The rows go with their session (prune); recall_fts
-- indexes text and scope (FTS5, an external-content table kept in step
-- by the triggers below). Existing
-- databases are indexed by the Go step that runs with this migration
-- (backfillRecall), in the same transaction.
CREATE TABLE recall_docs (
    id         INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    round_seq  INTEGER NOT NULL DEFAULT 0,
    task_seq   INTEGER NOT NULL DEFAULT 0,
    kind       TEXT NOT NULL,
    at         INTEGER NOT NULL DEFAULT 0,
    text       TEXT NOT NULL,
    scope      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX recall_docs_session ON recall_docs (session_id, kind, task_seq);

CREATE VIRTUAL TABLE recall_fts USING fts5(
    text, scope, content = 'recall_docs', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);

CREATE TRIGGER recall_docs_ai AFTER INSERT ON recall_docs BEGIN
    INSERT INTO recall_fts (rowid, text, scope) VALUES (new.id, new.text, new.scope);
END;
CREATE TRIGGER recall_docs_ad AFTER DELETE ON recall_docs BEGIN
    INSERT INTO recall_fts (recall_fts, rowid, text, scope) VALUES ('delete', old.id, old.text, old.scope);
END;
CREATE TRIGGER recall_docs_au AFTER UPDATE ON recall_docs BEGIN
    INSERT INTO recall_fts (recall_fts, rowid, text, scope) VALUES ('delete', old.id, old.text, old.scope);
    INSERT INTO recall_fts (rowid, text, scope) VALUES (new.id, new.text, new.scope);
END;
