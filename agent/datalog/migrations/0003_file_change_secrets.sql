-- 0003: a file content holding a secret is stored redacted. The SHA-256
-- of the real contents (hex) lets undo check that a file still holds what
-- keel wrote; the flags say which of path, before and after were
-- redacted, so undo never writes a redaction mark into a file.
ALTER TABLE file_changes ADD COLUMN before_sha256 TEXT NOT NULL DEFAULT '';
ALTER TABLE file_changes ADD COLUMN after_sha256 TEXT NOT NULL DEFAULT '';
ALTER TABLE file_changes ADD COLUMN path_redacted INTEGER NOT NULL DEFAULT 0;
ALTER TABLE file_changes ADD COLUMN before_redacted INTEGER NOT NULL DEFAULT 0;
ALTER TABLE file_changes ADD COLUMN after_redacted INTEGER NOT NULL DEFAULT 0;
