/**
 * The `deno run` flags of `deno task agent` and the installed command, for tests and
 * benchmarks that run the agent (or a script beside it) as a subprocess.
 *
 * @module
 */

/** Permissions and flags of the `agent` task (kept equal to deno.json's; a test checks). */
export const AGENT_FLAGS: readonly string[] = [
  "--no-prompt",
  "--unstable-lazy-dynamic-imports",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-net",
  "--allow-run",
  "--allow-sys",
];
