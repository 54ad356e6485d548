/**
 * Runs a `deno` subcommand of the kit's bundlers and tries it again when it lost Deno's
 * own first-use race. The first `deno bundle` in a `DENO_DIR` fetches esbuild from the
 * npm registry and copies it into place; two processes doing that at once can fail
 * ("failed to copy esbuild binary … No such file or directory", or "Failed loading
 * https://registry.npmjs.org/@esbuild%2flinux-x64"). Three first uses at once in a fresh
 * `DENO_DIR` failed one of them in 2 of 4 tries here, and `deno task ok` on a new machine
 * failed `agent net spine init --cloud` so. By a later try the other process has put
 * esbuild in place. Any other failure is returned at once.
 *
 * @module
 */

/** What Deno prints when another process is installing its esbuild at the same moment. */
const INSTALL_RACE = /failed to copy esbuild binary|Failed loading \S*@esbuild/;

/** The waits before each try after a lost race (3.75 s in all). */
const WAITS_MS = [250, 500, 1_000, 2_000];

/**
 * Runs `deno args` in `cwd` (standard input closed, output piped, no colour) and returns
 * the last try's output.
 */
export async function runDenoBundler(
  deno: string,
  args: string[],
  cwd: string,
): Promise<Deno.CommandOutput> {
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
