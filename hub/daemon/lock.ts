/**
 * The hub's lock: one file in the data directory holding the running hub's pid and
 * start time. A lock belongs to a running hub only when its process is really this
 * home's hub: the pid is alive, and the hub's heartbeat (rewritten every 5 s) names it
 * and is fresh, or the lock is younger than a heartbeat can be. Anything else (a pid
 * reused by another program after a crash or a reboot) is stale: it is taken over, and
 * `hub stop` never signals that process.
 *
 * @module
 */
import { readJsonTolerantSync } from "../atomic_file.ts";
import { processAlive } from "./process.ts";
import { readHeartbeat } from "./state_files.ts";

/** A heartbeat younger than this shows a live hub (it beats every 5 s). */
const FRESH_BEAT_MS = 30_000;

/** What the lock file holds. */
export interface LockInfo {
  pid: number;
  /** Epoch ms when the hub started. */
  started_at: number;
}

/** The result of {@linkcode acquireLock}. */
export type AcquireResult =
  | { ok: true; info: LockInfo; stale?: LockInfo }
  | { ok: false; holder: LockInfo };

/** Reads the lock file; `undefined` when missing or unreadable. */
export function readLock(file: string): LockInfo | undefined {
  const value = readJsonTolerantSync(file);
  if (typeof value !== "object" || value === null) return undefined;
  const { pid, started_at } = value as Record<string, unknown>;
  if (typeof pid !== "number" || typeof started_at !== "number") return undefined;
  return { pid, started_at };
}

/**
 * Returns the running hub's lock, or `undefined` when no hub holds it (missing or stale).
 */
export function liveLock(file: string): LockInfo | undefined {
  const info = readLock(file);
  if (info === undefined) return undefined;
  return holderAlive(file, info) ? info : undefined;
}

function holderAlive(file: string, info: LockInfo, nowMs = Date.now()): boolean {
  // A pid that is gone settles it; one that exists may be anybody's.
  if (processAlive(info.pid) === false) return false;
  const beat = readHeartbeat(file);
  if (beat !== undefined && beat.pid === info.pid && nowMs - beat.at < FRESH_BEAT_MS) return true;
  // A hub that has just taken the lock may not have beaten yet.
  return info.started_at <= nowMs && nowMs - info.started_at < FRESH_BEAT_MS;
}

/**
 * Takes the lock for `pid`. The file appears with its whole content at once (written
 * beside it, then hard-linked into place), so a second hub starting at the same moment
 * either sees the first one's pid or wins the link, never a half-written lock.
 */
export function acquireLock(file: string, pid: number, nowMs: number): AcquireResult {
  const info: LockInfo = { pid, started_at: nowMs };
  const dir = file.slice(0, file.lastIndexOf("/"));
  Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
  let stale: LockInfo | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    const temp = `${file}.${pid}.${crypto.randomUUID().slice(0, 8)}`;
    Deno.writeTextFileSync(temp, JSON.stringify(info) + "\n", { mode: 0o600 });
    try {
      Deno.linkSync(temp, file);
      return stale === undefined ? { ok: true, info } : { ok: true, info, stale };
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    } finally {
      try {
        Deno.removeSync(temp);
      } catch { /* gone */ }
    }
    const holder = readLock(file);
    // A lock naming our own pid was left by an earlier run that got the same pid
    // (a container restarting as pid 1): it is stale, not held.
    if (holder !== undefined && holder.pid !== pid && holderAlive(file, holder)) {
      return { ok: false, holder };
    }
    stale ??= holder;
    try {
      Deno.removeSync(file);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  const holder = readLock(file);
  return holder === undefined
    ? { ok: false, holder: { pid: 0, started_at: 0 } }
    : { ok: false, holder };
}

/** Removes the lock when it still belongs to `pid`. */
export function releaseLock(file: string, pid: number): void {
  const info = readLock(file);
  if (info !== undefined && info.pid !== pid) return;
  try {
    Deno.removeSync(file);
  } catch { /* already gone */ }
}
