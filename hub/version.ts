/**
 * The built-in distributions: how the built-in components are grouped for
 * `agent version` and `agent components`. Kept as plain data so `agent version` reads
 * it without loading anything else.
 *
 * @module
 */

/**
 * The version of every built-in distribution, kept equal to the `version` of the root
 * `deno.json` and of every workspace member's (a test holds them together).
 */
export const VERSION = "0.1.0";

/** A built-in distribution. */
export interface Distribution {
  name: string;
  version: string;
  /** What it adds, as `docs/decisions.md` names it. */
  about: string;
}

/**
 * The built-in distributions, in the order `agent version` prints them. Each one has
 * at least one component in `hub/app/components.ts` (a unit test holds the two lists together);
 * a distribution joins this list with its first component.
 */
export const DISTRIBUTIONS: readonly Distribution[] = [
  { name: "agent-core", version: VERSION, about: "roles, providers, budgets, chat, hub" },
  { name: "agent-net", version: VERSION, about: "the agent network and universe" },
  {
    name: "agent-cloud",
    version: VERSION,
    about: "cloud mode: agent cloud, the spine session store",
  },
];
