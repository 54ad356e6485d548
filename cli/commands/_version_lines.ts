/**
 * The lines `agent version` prints for the built-in distributions. Shared by the
 * fast path in `cli/main.ts` and the full command; imports nothing but data.
 *
 * @module
 */
import { DISTRIBUTIONS } from "@agent/hub/base";

/** `<name> <version>` for every built-in distribution, in their fixed order. */
export function versionLines(): string[] {
  return DISTRIBUTIONS.map((d) => `${d.name} ${d.version}`);
}
