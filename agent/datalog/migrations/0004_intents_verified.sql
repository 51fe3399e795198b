-- 0004: a call with side effects is recorded before it runs (an intent),
-- so a process killed while it runs still shows the call; the round's
-- commit replaces the intent with the tool_calls row. verified marks a
-- command that counts as verifying edits (decided when it ran);
-- by_command marks a file change a command made (found after it ran),
-- whose content before keel does not know.
CREATE TABLE call_intents (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    round_seq  INTEGER NOT NULL,
    call_id    TEXT NOT NULL,
    name       TEXT NOT NULL,
    arguments  TEXT NOT NULL DEFAULT '',
    started_at INTEGER NOT NULL,
    PRIMARY KEY (session_id, round_seq, call_id)
) WITHOUT ROWID;
ALTER TABLE tool_calls ADD COLUMN verified INTEGER NOT NULL DEFAULT 0;
ALTER TABLE file_changes ADD COLUMN by_command INTEGER NOT NULL DEFAULT 0;
