/**
 * Shared helpers for the hub's tests: a temporary directory that removes itself, so
 * a test run leaves nothing in the system temp folder, also when a test fails.
 *
 * @module
 */

/** A fresh directory in the system temp folder, removed at the end of a `using` block. */
export interface TempDir extends Disposable {
  /** The directory's absolute path. */
  readonly path: string;
}

/**
 * Makes a temporary directory that a `using` declaration removes, with everything in it,
 * when the block ends (returns or throws).
 *
 * @example
 * ```ts
 * import { tempDir } from "./_testing.ts";
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
 * if (!gone) throw new Error("the directory should be gone");
 * ```
 */
export function tempDir(prefix = "agent-test-"): TempDir {
  const path = Deno.makeTempDirSync({ prefix });
  return {
    path,
    [Symbol.dispose]() {
      removeTree(path);
    },
  };
}

/** Removes `path` and everything under it; a path already gone is fine. */
export function removeTree(path: string): void {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}
