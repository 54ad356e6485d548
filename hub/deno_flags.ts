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
  // V8 grows its young generation up to 16 MiB a semi-space under a steady stream of
  // short-lived objects (a chat's requests and answers): a hub rose 33 MiB per 1,000
  // turns that way while its live objects stayed flat. 2 MiB keeps it small at no
  // measurable CPU cost. `--optimize-for-size` has V8 favour memory over speed (less
  // optimised code kept, bytecode flushed sooner): a chatting hub's slope fell from
  // 11.6 to 2.4 MiB per 1,000 turns for ~8% more CPU in a turn of a few milliseconds,
  // and no slower start (docs/performance.md).
  "--v8-flags=--max-semi-space-size=2,--optimize-for-size",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-net",
  "--allow-run",
  "--allow-sys",
];
