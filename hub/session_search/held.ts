/**
 * The search index held open for the process, instead of opened and closed for every
 * message a store writes: an open runs the pragmas, the schema and seven statements'
 * preparation, and the close of the last connection checkpoints the WAL into the file.
 * Measured on this project's 2-core machine, recording one message took 2.6 to 2.8 ms
 * that way and 0.24 to 0.32 ms on an index held open; a turn writes two to four.
 *
 * The file is shared with other processes (the terminal chat, the TUI and the jobs write
 * their own sessions), which SQLite's WAL mode allows with one connection each. A held
 * index follows its file: when the file at that path is no longer the one opened (the
 * data folder removed, or made again), the next use opens the new one. At most
 * {@linkcode HELD_MAX} files are held, the least recently used closed first (a test
 * process writes many homes), and all are closed when the process ends normally.
 *
 * @module
 */
import { SessionSearchIndex } from "./index.ts";

/** How many index files one process holds open at most. */
export const HELD_MAX = 4;

interface Held {
  index: SessionSearchIndex;
  /** The file's identity when it was opened (`dev:ino`). */
  identity: string;
}

const held = new Map<string, Held>();
let hooked = false;

/**
 * The index at `file`, opened on first use (and created, mode 0600) and kept open for
 * the process. Throws what {@linkcode SessionSearchIndex.open} throws. The caller never
 * closes it: {@linkcode withHeldIndex} lets go of it after a failure.
 */
export function heldIndex(file: string): SessionSearchIndex {
  const kept = held.get(file);
  if (kept !== undefined) {
    held.delete(file);
    if (identity(file) === kept.identity) {
      held.set(file, kept);
      return kept.index;
    }
    closeQuietly(kept.index);
  }
  const index = SessionSearchIndex.open(file);
  const opened = identity(file);
  if (opened === undefined) {
    closeQuietly(index);
    throw new Deno.errors.NotFound(`the search index ${file} is gone`);
  }
  held.set(file, { index, identity: opened });
  for (const [oldest, entry] of held) {
    if (held.size <= HELD_MAX) break;
    held.delete(oldest);
    closeQuietly(entry.index);
  }
  if (!hooked) {
    hooked = true;
    globalThis.addEventListener("unload", closeAll);
  }
  return index;
}

/**
 * Runs `work` on the index held for `file`. When it throws (or the file cannot be
 * opened), lets go of the index, so the next use opens the file again, and throws on.
 */
export async function withHeldIndex<T>(
  file: string,
  work: (index: SessionSearchIndex) => T | Promise<T>,
): Promise<T> {
  try {
    return await work(heldIndex(file));
  } catch (error) {
    dropHeldIndex(file);
    throw error;
  }
}

/** Closes the index held for `file`, if any: its next use opens the file again. */
export function dropHeldIndex(file: string): void {
  const kept = held.get(file);
  if (kept === undefined) return;
  held.delete(file);
  closeQuietly(kept.index);
}

/** The files held open now, least recently used first (for tests). */
export function heldFiles(): string[] {
  return [...held.keys()];
}

function closeAll(): void {
  for (const file of [...held.keys()]) dropHeldIndex(file);
}

function closeQuietly(index: SessionSearchIndex): void {
  try {
    index.close();
  } catch { /* already closed, or the file went with its folder */ }
}

/** `dev:ino` of the file at `path`, or `undefined` when there is none. */
function identity(path: string): string | undefined {
  try {
    const info = Deno.statSync(path);
    return `${info.dev}:${info.ino}`;
  } catch {
    return undefined;
  }
}
