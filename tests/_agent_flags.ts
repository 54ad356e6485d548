/**
 * The `deno run` flags of `deno task agent` and the installed command, for tests and
 * benchmarks that run the agent (or a script beside it) as a subprocess.
 *
 * @module
 */

import { AGENT_DENO_FLAGS } from "@agent/hub/base";

/** Permissions and flags of the `agent` task (kept equal to deno.json's; a test checks). */
export const AGENT_FLAGS: readonly string[] = AGENT_DENO_FLAGS;

/**
 * What the tests run the agent's sources with: {@linkcode AGENT_FLAGS}, and
 * `node_modules/` read as `deno install` left it (`deno task test` installs first). With
 * deno.json's `"nodeModulesDir": "auto"`, every start checks each package's folder
 * (~4,000 `access` calls): about 0.09 s of processor time a process, of the ~0.4 s a
 * short command costs, and the suite starts ~1,000. The modules loaded are the same.
 */
export const RUN_FLAGS: readonly string[] = [...AGENT_FLAGS, "--node-modules-dir=manual"];
