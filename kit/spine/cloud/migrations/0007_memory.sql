-- The cloud brain's memory (issue 36): the same table and indexes as the hub's own
-- memory.sqlite3, so a cloud brain recalls, supersedes and forgets as a local hub does.
-- Both full-text indexes are contentless (the text is stored once, in memories) and
-- remove a deleted memory's entries at once (secure-delete); a forget also merges them
-- (optimize), which drops the terms no memory uses any more. Scopes: owner,
-- person:<id>, conversation:<key>; every route builds its WHERE from the scopes given.

CREATE TABLE IF NOT EXISTS memories (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  scope TEXT NOT NULL,
  kind TEXT NOT NULL,
  text TEXT NOT NULL,
  source TEXT NOT NULL,
  status TEXT NOT NULL,
  pending_reason TEXT,
  session_id TEXT,
  channel TEXT,
  created_ms INTEGER NOT NULL,
  valid_until_ms INTEGER,
  superseded_by INTEGER,
  replaces INTEGER,
  pinned INTEGER NOT NULL DEFAULT 0,
  tokens INTEGER NOT NULL,
  same_key TEXT NOT NULL,
  embedding BLOB,
  embed_model TEXT
);

CREATE INDEX IF NOT EXISTS memories_scope ON memories (scope, status, valid_until_ms);

CREATE INDEX IF NOT EXISTS memories_same ON memories (scope, same_key);

CREATE INDEX IF NOT EXISTS memories_pinned ON memories (scope, created_ms)
  WHERE pinned = 1 AND status = 'active' AND valid_until_ms IS NULL;

CREATE VIRTUAL TABLE IF NOT EXISTS memories_words USING fts5(
  text, content='', contentless_delete=1, tokenize="unicode61 remove_diacritics 2"
);

CREATE VIRTUAL TABLE IF NOT EXISTS memories_trigrams USING fts5(
  text, content='', contentless_delete=1, tokenize="trigram remove_diacritics 1"
);

CREATE VIRTUAL TABLE IF NOT EXISTS memories_vocab USING fts5vocab(memories_words, 'row');

INSERT INTO memories_words(memories_words, rank) VALUES('secure-delete', 1);

INSERT INTO memories_trigrams(memories_trigrams, rank) VALUES('secure-delete', 1);

CREATE TABLE IF NOT EXISTS memory_marks (
  session_id TEXT PRIMARY KEY,
  through_message INTEGER NOT NULL,
  at_ms INTEGER NOT NULL
);
