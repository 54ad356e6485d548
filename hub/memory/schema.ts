/**
 * The memory store's SQLite schema: one table of memories, two full-text indexes over
 * their text (words, with accents folded; trigrams, for pieces of words), the marks of
 * how far each conversation was read for proposals, and the schema version in
 * `PRAGMA user_version`.
 *
 * Both indexes are contentless (`content=''`): the text is stored once, in `memories`,
 * and an index holds only its terms. They delete by rowid (`contentless_delete`) and
 * remove a deleted memory's entries at once (`secure-delete`); a forget also merges each
 * index (`optimize`), the one step that drops a term no memory uses any more.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";

/** The schema version this code writes. */
export const MEMORY_SCHEMA_VERSION = 1;

const SCHEMA_V1 = `
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
CREATE VIRTUAL TABLE IF NOT EXISTS memories_words USING fts5(
  text, content='', contentless_delete=1, tokenize="unicode61 remove_diacritics 2"
);
CREATE VIRTUAL TABLE IF NOT EXISTS memories_trigrams USING fts5(
  text, content='', contentless_delete=1, tokenize="trigram remove_diacritics 1"
);
CREATE VIRTUAL TABLE IF NOT EXISTS memories_vocab USING fts5vocab(memories_words, 'row');
CREATE INDEX IF NOT EXISTS memories_pinned ON memories (scope, created_ms)
  WHERE pinned = 1 AND status = 'active' AND valid_until_ms IS NULL;
INSERT INTO memories_words(memories_words, rank) VALUES('secure-delete', 1);
INSERT INTO memories_trigrams(memories_trigrams, rank) VALUES('secure-delete', 1);
CREATE TABLE IF NOT EXISTS extraction_marks (
  session_id TEXT PRIMARY KEY,
  through_message INTEGER NOT NULL,
  at_ms INTEGER NOT NULL
) WITHOUT ROWID;
`;

/** The full-text indexes, each updated in the transaction that changes `memories`. */
export const INDEXES = ["memories_words", "memories_trigrams"] as const;

/** `PRAGMA user_version` of `db`. */
function version(db: DatabaseSync): number {
  const row = db.prepare("PRAGMA user_version").get() as { user_version?: number } | undefined;
  return Number(row?.user_version ?? 0);
}

/**
 * Brings `db` to {@linkcode MEMORY_SCHEMA_VERSION} in one `BEGIN IMMEDIATE`
 * transaction. Throws a `RangeError` for a store written by a newer agent.
 */
export function migrateMemory(db: DatabaseSync): void {
  const seen = version(db);
  if (seen === MEMORY_SCHEMA_VERSION) return;
  const tooNew = (v: number) =>
    new RangeError(
      `it has schema version ${v}, and this agent knows up to ${MEMORY_SCHEMA_VERSION}`,
    );
  if (seen > MEMORY_SCHEMA_VERSION) throw tooNew(seen);
  db.exec("BEGIN IMMEDIATE");
  try {
    const current = version(db);
    if (current > MEMORY_SCHEMA_VERSION) throw tooNew(current);
    if (current < 1) db.exec(SCHEMA_V1);
    db.exec(`PRAGMA user_version = ${MEMORY_SCHEMA_VERSION}`);
    db.exec("COMMIT");
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}
