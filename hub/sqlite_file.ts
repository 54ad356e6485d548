/**
 * A SQLite file of the data folder, private from its first byte. SQLite gives a
 * database's `-wal` and `-shm` files the mode of the main file when it makes them, so
 * the main file is created 0600 (its folder 0700) before SQLite opens it: a file SQLite
 * creates itself is 0644 under the usual umask, and so are its WAL files, made before a
 * `chmod` after the open could follow. The spend ledger, the job store, the mail store,
 * the memory store and the session search index open their files through here; WAL
 * files an older version left readable are closed up too.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";

/** The files SQLite keeps beside a database in WAL mode. */
const SIDE_FILES = ["-wal", "-shm"] as const;

/**
 * Creates `file` (mode 0600) and its folder (0700) when missing, and makes the file and
 * the WAL files beside it 0600 when they exist (when it may). Throws the file system's
 * error when the file cannot be created.
 *
 * @example
 * ```ts
 * import { privateDatabaseFile } from "./sqlite_file.ts";
 * const dir = Deno.makeTempDirSync();
 * privateDatabaseFile(`${dir}/data/x.sqlite3`);
 * const mode = Deno.statSync(`${dir}/data/x.sqlite3`).mode! & 0o777;
 * Deno.removeSync(dir, { recursive: true });
 * if (mode !== 0o600) throw new Error(mode.toString(8));
 * ```
 */
export function privateDatabaseFile(file: string): void {
  if (!exists(file)) {
    const dir = file.slice(0, file.lastIndexOf("/"));
    if (dir !== "") Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    Deno.openSync(file, { create: true, write: true, mode: 0o600 }).close();
  }
  for (const path of [file, ...SIDE_FILES.map((side) => file + side)]) {
    try {
      if ((Deno.statSync(path).mode ?? 0o600) & 0o077) Deno.chmodSync(path, 0o600);
    } catch {
      // A WAL file not there yet is made with the main file's mode; on a home this
      // process may not change (read-only), opening it says what is wrong.
    }
  }
}

function exists(file: string): boolean {
  try {
    Deno.statSync(file);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** Options for {@linkcode openPrivateDatabase}. */
export interface OpenDatabaseOptions {
  /** `NORMAL` cannot corrupt in WAL mode (a power cut may lose the last writes). */
  synchronous: "NORMAL" | "FULL";
  /** How long a write waits for another process's, in ms. @default 5000 */
  busyTimeoutMs?: number;
  /** Makes or migrates the schema (and any pragma of its own) on the open database. */
  setup(db: DatabaseSync): void;
}

/**
 * Opens the SQLite file `file` of the data folder in WAL mode, private from its first
 * byte ({@linkcode privateDatabaseFile}), with `setup` run on it; closed again when
 * anything of that throws.
 *
 * @example
 * ```ts
 * import { openPrivateDatabase } from "./sqlite_file.ts";
 * const dir = Deno.makeTempDirSync();
 * const db = openPrivateDatabase(`${dir}/x.sqlite3`, {
 *   synchronous: "NORMAL",
 *   setup: (db) => db.exec("CREATE TABLE IF NOT EXISTS t (x)"),
 * });
 * db.close();
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function openPrivateDatabase(file: string, options: OpenDatabaseOptions): DatabaseSync {
  privateDatabaseFile(file);
  const db = new DatabaseSync(file);
  try {
    db.exec(`PRAGMA busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    db.exec("PRAGMA journal_mode = WAL");
    db.exec(`PRAGMA synchronous = ${options.synchronous}`);
    options.setup(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
