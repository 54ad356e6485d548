/**
 * Temporary folders for the tests that remove themselves: `using` (or
 * `await using`) a {@linkcode TempDir} removes it with everything in it when the block
 * ends, also when the test fails, so a run leaves nothing in the system temp folder.
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
  return {
    path,
    [Symbol.dispose]: () => removeTreeSync(path),
    [Symbol.asyncDispose]: () => removeTree(path),
  };
}

/**
 * Removes `path` and everything under it; a path already gone is fine. A process that
 * was just stopped may still be writing into it, so a folder that filled up again while
 * it was being removed is removed again (a few times).
 */
export async function removeTree(path: string): Promise<void> {
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

/** {@linkcode removeTree}, synchronously (no waiting between attempts). */
export function removeTreeSync(path: string): void {
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
