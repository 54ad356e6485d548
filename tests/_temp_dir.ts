/**
 * Temporary folders for the tests that remove themselves: `using` (or
 * `await using`) a {@linkcode TempDir} removes it with everything in it when the block
 * ends, also when the test fails, so a run leaves nothing in the system temp folder.
 *
 * A folder can come back after its test removed it: an in-process hub, a timer or a
 * child's output pump that the test did not stop writes into it, and a recursive mkdir
 * makes it again. When test files share an isolate (`_tools/test_shards.ts`) such a
 * writer lives on into the next files and leaves the folder in the temp folder for good.
 * So every folder removed here is remembered with the line that made it (or, given to
 * {@linkcode removeTree}, the line that removed it), and when the
 * isolate's tests have all run (one file, or a whole shard) and a moment more, a folder
 * that exists again fails the run with one line naming that test line and what the
 * folder holds, and is removed.
 *
 * @module
 */

/** A fresh folder in the system temp folder, removed at the end of a `using` block. */
export interface TempDir extends Disposable, AsyncDisposable {
  /** The folder's absolute path. */
  readonly path: string;
}

/**
 * Makes a temporary folder that a `using` or `await using` declaration removes (the
 * one temp-folder helper of the tests, in `tests/` and beside the code alike).
 *
 * @example
 * ```ts
 * import { tempDir } from "./_temp_dir.ts";
 * let kept: string;
 * {
 *   using tmp = tempDir("example-");
 *   kept = tmp.path;
 *   Deno.writeTextFileSync(`${tmp.path}/a.txt`, "a");
 * }
 * let gone = false;
 * try {
 *   Deno.statSync(kept);
 * } catch (error) {
 *   gone = error instanceof Deno.errors.NotFound;
 * }
 * if (!gone) throw new Error("the folder should be gone");
 * ```
 */
export function tempDir(prefix = "agent-test-"): TempDir {
  return disposable(Deno.makeTempDirSync({ prefix }));
}

/** A `TempDir` over a folder that already exists (made elsewhere, removed here). */
export function disposable(path: string): TempDir {
  const madeAt = `made at ${callerLine()}`;
  return {
    path,
    [Symbol.dispose]: () => {
      removeNowSync(path);
      removed.set(path, madeAt);
    },
    [Symbol.asyncDispose]: async () => {
      await removeNow(path);
      removed.set(path, madeAt);
    },
  };
}

/**
 * The folders removed in this isolate, each with where it came from: the line that
 * made it (a `TempDir`), else the line that removed it ({@linkcode removeTree}).
 */
const removed = new Map<string, string>();

/** This file's URL: its frames are not the caller's. */
const SELF = import.meta.url;

/**
 * Where the folder being made was asked for: the outermost frame in a test file (the
 * test that owns it), and the first frame outside this file (a helper such as
 * `tempHome()`) when the two differ; paths from the repository root.
 */
function callerLine(): string {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  const stack = new Error().stack ?? "";
  Error.stackTraceLimit = limit;
  const frames = [...stack.matchAll(/(file:\/\/[^\s()]+):(\d+):\d+/g)]
    .filter((m) => m[1] !== SELF)
    .map((m) => `${m[1]!.slice(ROOT.length)}:${m[2]}`);
  const first = frames[0] ?? "an unknown line";
  const test = frames.findLast((frame) => /(^|[_./])test\.[a-z]+:/.test(frame));
  return test === undefined || test === first ? first : `${test} (through ${first})`;
}

/** The repository root's URL: frames are named from it. */
const ROOT = new URL("../", import.meta.url).href;

/** At most this many paths of a folder that came back are named. */
const SHOWN = 3;

/**
 * The folders removed in this isolate that exist again, one line each (the line that
 * made it and the first paths in it), and removes them; empty when none came back.
 * `deno test` runs it after the isolate's last test (below); exported for its own test.
 */
export function cameBack(): string[] {
  const lines: string[] = [];
  for (const [path, origin] of removed) {
    const held = listSome(path);
    if (held === null) continue;
    removed.delete(path);
    lines.push(
      `${path} (${origin}) was written again after its test removed it` +
        (held.length === 0 ? "" : `: ${held.join(", ")}`),
    );
    removeNowSync(path);
  }
  return lines;
}

/** Up to {@linkcode SHOWN} file paths under `dir` (from it), or null when it is gone. */
function listSome(dir: string): string[] | null {
  try {
    if (!Deno.lstatSync(dir).isDirectory) return [];
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  const found: string[] = [];
  const visit = (sub: string): void => {
    for (const entry of Deno.readDirSync(`${dir}/${sub}`)) {
      if (found.length >= SHOWN) return;
      const path = sub === "" ? entry.name : `${sub}/${entry.name}`;
      if (entry.isDirectory) visit(path);
      else found.push(path);
    }
  };
  visit("");
  return found;
}

/**
 * How long the check waits after the last test for a writer's last steps (a stopped
 * hub's final write, a timer already due): a file run alone ends its isolate right
 * after, which would hide them. Waiting costs no processor time.
 */
const SETTLE_MS = 200;

// Outside `deno test` (a bench script importing the helpers) this registers nothing.
Deno.test.afterAll(async () => {
  if (removed.size === 0) return;
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const lines = cameBack();
  if (lines.length > 0) {
    throw new Error(
      `Cannot leave the temp folder clean: something a test started and did not stop ` +
        `wrote into ${lines.length === 1 ? "a folder" : `${lines.length} folders`} ` +
        `after the test removed it:\n${lines.join("\n")}`,
    );
  }
});

/**
 * Removes `path` and everything under it; a path already gone is fine. A process that
 * was just stopped may still be writing into it, so a folder that filled up again while
 * it was being removed is removed again (a few times). The path is remembered, with the
 * line that removed it, for the check after the isolate's last test.
 */
export async function removeTree(path: string): Promise<void> {
  await removeNow(path);
  removed.set(path, `removed at ${callerLine()}`);
}

/** {@linkcode removeTree}, synchronously (no waiting between attempts). */
export function removeTreeSync(path: string): void {
  removeNowSync(path);
  removed.set(path, `removed at ${callerLine()}`);
}

async function removeNow(path: string): Promise<void> {
  for (let attempt = 0;; attempt++) {
    try {
      await Deno.remove(path, { recursive: true });
      return;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      if (attempt >= 4) throw error;
      await new Promise((r) => setTimeout(r, 50 * (attempt + 1)));
    }
  }
}

function removeNowSync(path: string): void {
  for (let attempt = 0;; attempt++) {
    try {
      Deno.removeSync(path, { recursive: true });
      return;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      if (attempt >= 4) throw error;
    }
  }
}

/**
 * `{TMPDIR}` when it is set, for a child started with `clearEnv: true`: without it the
 * child would write its temporary files to `/tmp` instead of the folder the run gave.
 */
export function tmpdirEnv(): Record<string, string> {
  const dir = Deno.env.get("TMPDIR");
  return dir === undefined || dir === "" ? {} : { TMPDIR: dir };
}
