-- 0007: why a guard or checkpoint fired and what keel did (inject, ask,
-- halt), as its card showed them live, so a resumed transcript shows the
-- card whole. Rows written before are '' (the replay infers the action).
ALTER TABLE interventions ADD COLUMN why TEXT NOT NULL DEFAULT '';
ALTER TABLE interventions ADD COLUMN action TEXT NOT NULL DEFAULT '';
