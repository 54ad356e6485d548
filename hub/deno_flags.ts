/**
 * The flags `agent` runs with everywhere: the install line, `deno task agent`, the
 * service files, a compiled binary (without the lazy-imports flag, which a binary has
 * no use for) and the tests that run the agent as a subprocess. Never `-A`.
 *
 * @module
 */

/** The `deno run` flags of the install line and of `deno task agent`. */
export const AGENT_DENO_FLAGS: readonly string[] = [
  "--no-prompt",
  "--unstable-lazy-dynamic-imports",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-net",
  "--allow-run",
  "--allow-sys",
];
