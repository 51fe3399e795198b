-- The file journal (issue 26). A file change is written before the file
-- is (state 'pending': keel does not know yet whether the write happened;
-- its round's commit clears it), so undo can restore what a killed keel
-- was changing. Undo keeps its own journal (undo_runs, and undo_run on
-- the changes it is restoring), so a killed undo is finished by the next.
-- Contents may be compressed: before_enc and after_enc are '' (raw), 'f'
-- (DEFLATE) or, for after, 'd' (a DEFLATEd line edit script on before).
ALTER TABLE file_changes ADD COLUMN state TEXT NOT NULL DEFAULT '';
ALTER TABLE file_changes ADD COLUMN before_enc TEXT NOT NULL DEFAULT '';
ALTER TABLE file_changes ADD COLUMN after_enc TEXT NOT NULL DEFAULT '';
ALTER TABLE file_changes ADD COLUMN undo_run INTEGER;
CREATE INDEX file_changes_pending ON file_changes (session_id) WHERE state = 'pending';
CREATE INDEX file_changes_undo_run ON file_changes (undo_run) WHERE undo_run IS NOT NULL;

CREATE TABLE undo_runs (
    id          INTEGER PRIMARY KEY,
    session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    task_seq    INTEGER NOT NULL,
    started_at  INTEGER NOT NULL,
    finished_at INTEGER
);
CREATE INDEX undo_runs_open ON undo_runs (session_id) WHERE finished_at IS NULL;
