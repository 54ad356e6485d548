/**
 * The `deno run` flags of `deno task agent` and the installed command, for tests and
 * benchmarks that run the agent (or a script beside it) as a subprocess.
 *
 * @module
 */

import { AGENT_DENO_FLAGS } from "@agent/hub/base";

/** Permissions and flags of the `agent` task (kept equal to deno.json's; a test checks). */
export const AGENT_FLAGS: readonly string[] = AGENT_DENO_FLAGS;
