-- 0005: an edit of a large file keeps only the pieces it replaced (a JSON
-- list of {offset, line, old, new}) with the hashes of the whole file
-- before and after, instead of two full copies.
ALTER TABLE file_changes ADD COLUMN splices TEXT NOT NULL DEFAULT '';
ALTER TABLE file_changes ADD COLUMN splices_redacted INTEGER NOT NULL DEFAULT 0;
