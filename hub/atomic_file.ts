/**
 * Crash-safe file writes for every file the agent keeps (`.env`, sessions, network
 * state, the hub's files): write a hidden temporary file beside the target, fsync it,
 * then rename it over the target, so a reader sees the old or the new content, never
 * half. And readers that survive a half-written file from an older writer.
 *
 * @module
 */

/** Options for {@linkcode writeFileAtomic}. */
export interface WriteAtomicOptions {
  /** File mode of the written file. @default 0o600 */
  mode?: number;
  /**
   * fsync before the rename. Without it the rename still never shows a half-written
   * file, but a power loss may bring back the previous version. @default true
   */
  sync?: boolean;
  /**
   * Creates the parent directory (and its parents) with this mode when it is missing.
   * Without it, a missing directory is an error.
   */
  dirMode?: number;
}

/**
 * Writes `data` to `path` atomically (temp file, fsync, rename), mode 0600 unless told.
 *
 * @example
 * ```ts
 * import { writeFileAtomic } from "./atomic_file.ts";
 * const dir = await Deno.makeTempDir();
 * await writeFileAtomic(`${dir}/a.json`, "{}");
 * if (await Deno.readTextFile(`${dir}/a.json`) !== "{}") throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: WriteAtomicOptions = {},
): Promise<void> {
  const mode = options.mode ?? 0o600;
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  if (options.dirMode !== undefined) {
    await Deno.mkdir(parentOf(path), { recursive: true, mode: options.dirMode });
  }
  const temp = tempPathFor(path);
  const file = await Deno.open(temp, { write: true, createNew: true, mode });
  try {
    let written = 0;
    while (written < bytes.length) written += await file.write(bytes.subarray(written));
    if (options.sync !== false) await file.sync();
  } finally {
    file.close();
  }
  try {
    await Deno.chmod(temp, mode);
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/** The synchronous twin of {@linkcode writeFileAtomic}, for exit paths that cannot await. */
export function writeFileAtomicSync(
  path: string,
  data: string | Uint8Array,
  options: WriteAtomicOptions = {},
): void {
  const mode = options.mode ?? 0o600;
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  if (options.dirMode !== undefined) {
    Deno.mkdirSync(parentOf(path), { recursive: true, mode: options.dirMode });
  }
  const temp = tempPathFor(path);
  const file = Deno.openSync(temp, { write: true, createNew: true, mode });
  try {
    let written = 0;
    while (written < bytes.length) written += file.writeSync(bytes.subarray(written));
    if (options.sync !== false) file.syncSync();
  } finally {
    file.close();
  }
  try {
    Deno.chmodSync(temp, mode);
    Deno.renameSync(temp, path);
  } catch (error) {
    try {
      Deno.removeSync(temp);
    } catch { /* already gone */ }
    throw error;
  }
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "." : path.slice(0, slash) || "/";
}

/** A hidden temp file beside the target, so listings of the folder never pick it up. */
function tempPathFor(path: string): string {
  const slash = path.lastIndexOf("/");
  return `${path.slice(0, slash + 1)}.${path.slice(slash + 1)}.${
    crypto.randomUUID().slice(0, 8)
  }.tmp`;
}

/**
 * Reads and parses a JSON file; a missing, empty or half-written file yields `undefined`
 * (readers must survive a crash of an older writer that did not write atomically).
 */
export async function readJsonTolerant(path: string): Promise<unknown> {
  const text = await readTextIfAny(path);
  return text === undefined ? undefined : parseOrUndefined(text);
}

/** The synchronous twin of {@linkcode readJsonTolerant}. */
export function readJsonTolerantSync(path: string): unknown {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  return parseOrUndefined(text);
}

/** The file's text, or `undefined` when there is no file. */
export async function readTextIfAny(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Reads a JSON-lines file: one value per line, skipping blank lines and any line that
 * is not JSON (a line cut short by a crash). `undefined` when there is no file.
 *
 * @example
 * ```ts
 * import { readJsonLines } from "./atomic_file.ts";
 * const file = await Deno.makeTempFile();
 * await Deno.writeTextFile(file, '{"a":1}\n{"b":\n');
 * const values = await readJsonLines(file);
 * await Deno.remove(file);
 * if (values?.length !== 1) throw new Error();
 * ```
 */
export async function readJsonLines(file: string): Promise<unknown[] | undefined> {
  const text = await readTextIfAny(file);
  if (text === undefined) return undefined;
  const out: unknown[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      out.push(JSON.parse(line));
    } catch { /* a half-written line from a crash */ }
  }
  return out;
}

/**
 * Runs `fn` holding an exclusive lock (`flock`) on `lockFile`, created 0600 when
 * missing: another process asking for the same lock waits until `fn` is done. Callers
 * keep their own in-process queue (a lock is per open file, not per process).
 */
export async function withFileLock<T>(lockFile: string, fn: () => Promise<T>): Promise<T> {
  const lock = await Deno.open(lockFile, { create: true, write: true, mode: 0o600 });
  try {
    await lock.lock(true);
    return await fn();
  } finally {
    lock.close();
  }
}
