/**
 * The Directory's tables, created or migrated once when the object opens, with the
 * schema version in `meta`.
 *
 * @module
 */
import type { DurableObjectStorage } from "@cloudflare/workers-types/index.ts";

/**
 * The directory's schema version, kept in `meta`. 1: agents, links, replay and rate
 * rows; 2: the agents' public sub-agents (a JSON column); 3: indexes for the paged
 * snapshot build and the cron, and the visible-link message sum kept by every write.
 */
export const DIRECTORY_SCHEMA_VERSION = 3;

/** Creates the tables or brings older ones to {@linkcode DIRECTORY_SCHEMA_VERSION}. */
export function migrateDirectory(storage: DurableObjectStorage): void {
  const sql = storage.sql;
  sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value)");
  const row = sql.exec("SELECT value FROM meta WHERE key = 'schema_version'").toArray()[0];
  const version = Number(row?.value ?? 0);
  if (version >= DIRECTORY_SCHEMA_VERSION) return;
  const setMeta = (key: string, value: unknown) =>
    sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", key, value);
  storage.transactionSync(() => {
    if (version < 1) {
      sql.exec(`
        CREATE TABLE IF NOT EXISTS agents (
          address TEXT PRIMARY KEY, name TEXT NOT NULL, sign_key TEXT NOT NULL,
          owner TEXT NOT NULL, about TEXT NOT NULL, joined_at INTEGER NOT NULL,
          last_seen INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS links (
          a TEXT NOT NULL, b TEXT NOT NULL, messages INTEGER NOT NULL, PRIMARY KEY (a, b)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS replay (address TEXT PRIMARY KEY, last_ts INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS hits (address TEXT NOT NULL, at INTEGER NOT NULL);
        CREATE INDEX IF NOT EXISTS hits_address_at ON hits (address, at);
      `);
    }
    if (version < 2) {
      sql.exec("ALTER TABLE agents ADD COLUMN subs TEXT NOT NULL DEFAULT '[]'");
    }
    if (version < 3) {
      sql.exec(`
        CREATE INDEX IF NOT EXISTS agents_joined ON agents (joined_at, address);
        CREATE INDEX IF NOT EXISTS agents_last_seen ON agents (last_seen);
      `);
      const sum = sql.exec(
        `SELECT COALESCE(SUM(MIN(l1.messages, l2.messages)), 0) AS n
         FROM links l1 JOIN links l2 ON l2.a = l1.b AND l2.b = l1.a WHERE l1.a < l1.b`,
      ).toArray()[0];
      setMeta("messages", Number(sum?.n ?? 0));
    }
    setMeta("schema_version", DIRECTORY_SCHEMA_VERSION);
  });
}
