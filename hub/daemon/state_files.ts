/**
 * The hub's small state files beside its lock: the heartbeat (rewritten every few
 * seconds while the hub runs) and the last crash.
 *
 * @module
 */
import { readJsonTolerantSync, writeFileAtomic, writeFileAtomicSync } from "../atomic_file.ts";
import { formatTime, type Lang } from "../i18n.ts";
import { t } from "./_messages.ts";

/** The heartbeat file's content. */
export interface Heartbeat {
  pid: number;
  /** Epoch ms of the last beat. */
  at: number;
}

/** The last-crash file's content. */
export interface CrashRecord {
  /** Epoch ms when the crash happened or was noticed. */
  at: number;
  pid: number;
  /** One line: what went wrong. */
  reason: string;
}

/** Where the heartbeat lives: `<dataDir>/hub.heartbeat`. */
export function heartbeatFile(lockFile: string): string {
  return `${dirOf(lockFile)}/hub.heartbeat`;
}

/** Where the last crash lives: `<dataDir>/hub.crash.json`. */
export function crashFile(lockFile: string): string {
  return `${dirOf(lockFile)}/hub.crash.json`;
}

/** Writes a heartbeat. */
export async function writeHeartbeat(lockFile: string, beat: Heartbeat): Promise<void> {
  await writeFileAtomic(heartbeatFile(lockFile), JSON.stringify(beat) + "\n");
}

/** Reads the heartbeat; `undefined` when none was written. */
export function readHeartbeat(lockFile: string): Heartbeat | undefined {
  const value = readJsonTolerantSync(heartbeatFile(lockFile));
  if (typeof value !== "object" || value === null) return undefined;
  const { pid, at } = value as Record<string, unknown>;
  return typeof pid === "number" && typeof at === "number" ? { pid, at } : undefined;
}

/** Records a crash (synchronously: it runs on the way out of a dying process). */
export function recordCrash(lockFile: string, crash: CrashRecord): void {
  try {
    Deno.mkdirSync(dirOf(lockFile), { recursive: true, mode: 0o700 });
    writeFileAtomicSync(crashFile(lockFile), JSON.stringify(crash) + "\n");
  } catch { /* the crash itself matters more than its record */ }
}

/** Reads the last crash; `undefined` when the hub never crashed. */
export function readCrash(lockFile: string): CrashRecord | undefined {
  const value = readJsonTolerantSync(crashFile(lockFile));
  if (typeof value !== "object" || value === null) return undefined;
  const { pid, at, reason } = value as Record<string, unknown>;
  return typeof pid === "number" && typeof at === "number" && typeof reason === "string"
    ? { pid, at, reason }
    : undefined;
}

/**
 * The crash a hub that held the lock as `oldPid` and is gone without a clean shutdown
 * (killed, the machine off) stands for: its last heartbeat's time, else `at`. The next
 * start records it; `agent hub status` shows it before that start.
 */
export function uncleanEnd(lockFile: string, oldPid: number, at: number, lang: Lang): CrashRecord {
  const beat = readHeartbeat(lockFile);
  const last = beat !== undefined && beat.pid === oldPid ? beat.at : undefined;
  const reason = t(lang, "crash_unclean", {
    pid: oldPid,
    time: last === undefined ? "-" : formatTime(last),
  });
  return { at: last ?? at, pid: oldPid, reason };
}

function dirOf(file: string): string {
  const i = file.lastIndexOf("/");
  return i <= 0 ? "/" : file.slice(0, i);
}
