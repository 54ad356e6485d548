/**
 * The installed built-in distributions: those that ship at least one built-in
 * component. Shared by `agent version`'s fast path and the full command.
 *
 * The fast path must not import `hub/components/builtin.ts`: its lazy `load()`
 * imports are followed when Deno builds the module graph, which would double the
 * start time. So the distribution names are read from that file's text (a unit test
 * checks this agrees with the imported list).
 *
 * @module
 */
import { type Distribution, DISTRIBUTIONS } from "../../hub/components/distributions.ts";

const BUILTIN_FILE = new URL("../../hub/components/builtin.ts", import.meta.url);

/** The distribution names that `hub/components/builtin.ts` mentions. */
export function builtinDistributionNames(): Set<string> {
  try {
    const text = Deno.readTextFileSync(BUILTIN_FILE);
    return new Set([...text.matchAll(/distribution:\s*"([^"]+)"/g)].map((m) => m[1]!));
  } catch {
    // A bundled build has no source files next to it; the core is always there.
    return new Set(["agent-core"]);
  }
}

/** Built-in distributions with at least one component, in their fixed order. */
export function installedDistributions(): Distribution[] {
  const used = builtinDistributionNames();
  return DISTRIBUTIONS.filter((d) => used.has(d.name));
}

/** The lines `agent version` prints for the built-in distributions. */
export function versionLines(): string[] {
  return installedDistributions().map((d) => `${d.name} ${d.version}`);
}
