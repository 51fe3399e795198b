-- 0008: a session's messages by round, for loading some of its rounds
-- (a resumed session's last rounds in the TUI, one round in keel log)
-- without reading every message of the session.
CREATE INDEX messages_round ON messages (session_id, round_seq);
