/**
 * Opening the ledger's SQLite file: created with mode 0600 (its folder 0700), WAL with
 * a busy timeout for writers, read-only for reports (from a private copy when SQLite
 * cannot make its WAL files in a folder this process may not write), the schema
 * brought up to date. Every failure is a {@linkcode LedgerError}.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { migrate, SCHEMA_VERSION, schemaVersion } from "./schema.ts";
import { LedgerError } from "./types.ts";
import { privateDatabaseFile } from "../sqlite_file.ts";

const BUSY_TIMEOUT_MS = 10_000;

/** Whether `file` exists; a `read` {@linkcode LedgerError} when it cannot be told. */
export function exists(file: string): boolean {
  try {
    Deno.statSync(file);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw new LedgerError("read", file, error);
  }
}

/** Creates `file` (mode 0600) and its folder (0700) when missing. */
export function createFile(file: string): void {
  try {
    privateDatabaseFile(file);
  } catch (error) {
    if (error instanceof LedgerError) throw error;
    throw new LedgerError("create", file, error);
  }
}

/**
 * A connection to the ledger at `file`, and the private copy it reads when it is one
 * (to remove on close).
 */
export function connect(file: string, readOnly: boolean): { db: DatabaseSync; copy?: string } {
  let db: DatabaseSync | undefined;
  let copy: string | undefined;
  try {
    if (readOnly) {
      const opened = openReadOnly(file);
      db = opened.db;
      copy = opened.copy;
    } else {
      db = new DatabaseSync(file);
    }
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (readOnly) {
      // Reading proves the file is a database (a damaged one fails here, not later).
      const seen = schemaVersion(db);
      db.prepare("SELECT COUNT(*) FROM sqlite_master").get();
      if (seen > SCHEMA_VERSION) migrate(db, file);
    } else {
      db.exec("PRAGMA journal_mode = WAL");
      // WAL with NORMAL sync cannot corrupt; a power cut may lose the last few rows.
      db.exec("PRAGMA synchronous = NORMAL");
      // The ledger checkpoints after the writes that end a call (settle, record), never
      // inside the budget check's reservation: a checkpoint's fsync there would be the
      // check's slowest moment.
      db.exec("PRAGMA wal_autocheckpoint = 0");
      migrate(db, file);
    }
    return copy === undefined ? { db } : { db, copy };
  } catch (error) {
    try {
      db?.close();
    } catch { /* already failing */ }
    if (copy !== undefined) Deno.removeSync(copy, { recursive: true });
    if (error instanceof LedgerError) throw error;
    throw new LedgerError("open", file, error);
  }
}

/**
 * A read-only connection to a SQLite file in WAL mode (the ledger, the job store). In a
 * folder this process may not write, SQLite cannot make the WAL's shared-memory file, so
 * the file is read from a private copy in the system's temp folder (the caller removes
 * `copy` on close): nobody can be writing it there either.
 */
export function openReadOnly(file: string): { db: DatabaseSync; copy?: string } {
  try {
    const db = new DatabaseSync(file, { readOnly: true });
    db.prepare("SELECT COUNT(*) FROM sqlite_master").get();
    return { db };
  } catch (error) {
    if (!/unable to open database file/i.test(String(error))) throw error;
    // Readable at all? A file this process may not read says "permission denied".
    Deno.openSync(file, { read: true }).close();
    const copy = Deno.makeTempDirSync({ prefix: "agent-read-" });
    const name = file.slice(file.lastIndexOf("/") + 1);
    try {
      Deno.copyFileSync(file, `${copy}/${name}`);
      if (exists(`${file}-wal`)) Deno.copyFileSync(`${file}-wal`, `${copy}/${name}-wal`);
      return { db: new DatabaseSync(`${copy}/${name}`, { readOnly: true }), copy };
    } catch (inner) {
      Deno.removeSync(copy, { recursive: true });
      throw inner;
    }
  }
}
