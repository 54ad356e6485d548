/**
 * Runs the kit's bundlers' `deno` commands so that Deno's own first-use race cannot fail
 * them. The first `deno bundle` in a `DENO_DIR` fetches esbuild from the npm registry and
 * copies it into place, and two at once can fail ("failed to copy esbuild binary … No
 * such file or directory", or "Failed loading
 * https://registry.npmjs.org/@esbuild%2flinux-x64"):
 *
 * - **In one process** the commands take turns: `kit:check` bundling the spine and the
 *   universe side by side failed so on a fresh CI machine (3 of 8 tries, two at once).
 * - **Across processes** a lost race is tried again; by then the other process has put
 *   esbuild in place. Three first uses at once in a fresh `DENO_DIR` failed one of them
 *   in 2 of 4 tries, and `deno task ok` on a new machine failed
 *   `agent net spine init --cloud` so. Any other failure is returned at once.
 *
 * @module
 */

/** What Deno prints when another process is installing its esbuild at the same moment. */
const INSTALL_RACE = /failed to copy esbuild binary|Failed loading \S*@esbuild/;

/** The waits before each try after a lost race (3.75 s in all). */
const WAITS_MS = [250, 500, 1_000, 2_000];

/** The command running now (or done): the next waits for it. */
let running: Promise<unknown> = Promise.resolve();

/**
 * Runs `deno args` in `cwd` (standard input closed, output piped, no colour) after this
 * process's earlier ones, and returns the last try's output.
 */
export function runDenoBundler(
  deno: string,
  args: string[],
  cwd: string,
): Promise<Deno.CommandOutput> {
  const turn = running.then(() => runTrying(deno, args, cwd));
  running = turn.catch(() => {});
  return turn;
}

async function runTrying(deno: string, args: string[], cwd: string): Promise<Deno.CommandOutput> {
  for (let tried = 0;; tried++) {
    const out = await new Deno.Command(deno, {
      args,
      cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const wait = WAITS_MS[tried];
    if (out.success || wait === undefined) return out;
    if (!INSTALL_RACE.test(new TextDecoder().decode(out.stderr))) return out;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
