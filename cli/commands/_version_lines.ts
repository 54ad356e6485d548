/**
 * The installed distributions: the built-in ones that ship at least one registered
 * component. Shared by `agent version`'s fast path and `agent components`.
 *
 * @module
 */
import { BUILTIN_COMPONENTS } from "../../hub/components/builtin.ts";
import { type Distribution, DISTRIBUTIONS } from "../../hub/components/distributions.ts";

/** Built-in distributions with at least one component, in their fixed order. */
export function installedDistributions(): Distribution[] {
  const used = new Set(BUILTIN_COMPONENTS.map((c) => c.distribution));
  return DISTRIBUTIONS.filter((d) => used.has(d.name));
}
