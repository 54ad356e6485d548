/**
 * Sub-agents: specialists of the owner's agent defined in `persona/subs/<name>.md`.
 * A public one answers contacts who write to `<address>/<name>`; private ones never
 * leave the hub. This package is the built-in `agent.subs` component.
 *
 * @example
 * ```ts
 * import { loadSubAgentDirectory } from "./mod.ts";
 * import { defaultConfig } from "../config/parse.ts";
 * import { resolvePaths } from "../paths.ts";
 * const home = await Deno.makeTempDir();
 * const paths = resolvePaths({ home, env: {} });
 * const subs = await loadSubAgentDirectory(defaultConfig(), paths).public_subs();
 * await Deno.remove(home, { recursive: true });
 * if (subs.length !== 0) throw new Error("no persona/subs yet");
 * ```
 *
 * @module
 */
export * from "./definition.ts";
export * from "./directory.ts";
export * from "./persona.ts";
export * from "./user_file.ts";
export * from "./from_registry.ts";
