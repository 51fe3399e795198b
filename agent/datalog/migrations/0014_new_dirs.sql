-- The directories a file change created for a new file (absolute paths,
-- outermost first, one per line; '' when none), journaled before they
-- are made, so undo can remove them again once they are empty.
ALTER TABLE file_changes ADD COLUMN new_dirs TEXT NOT NULL DEFAULT '';
