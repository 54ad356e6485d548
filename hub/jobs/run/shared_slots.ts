/**
 * Which shared slots a process uses for its jobs: the hub and the cloud brain (their
 * scheduler and Run now), `agent jobs run`, and `agent jobs pause|resume|list` alike, so a
 * run by hand claims and settles its slot on the spine exactly as a scheduled one does and
 * counts in the job's day on both hubs of the identity, and a pause by hand is shared too.
 *
 * @module
 */
import { spineOf, SpineSlots } from "../spine_slots.ts";
import type { JobStore } from "../store.ts";

/** Options for {@linkcode sharedSlots}. */
export interface SharedSlotsOptions {
  /** The brain's own spine (`agent cloud run`); absent for a local hub. */
  cloud?: { url: string; token: string; fetch?: typeof fetch } | undefined;
  env: Readonly<Record<string, string | undefined>>;
  store: JobStore;
  /** Where a spine's failure is told (the hub log). */
  warn?: ((line: string) => void) | undefined;
  /** How a local home's spine is reached (tests). @default fetch */
  fetch?: typeof fetch | undefined;
}

/**
 * The slots shared with the identity's other hub: the cloud brain's spine, or the cloud
 * spine a local home names (`AGENT_SPINE_URL`, `AGENT_SPINE_TOKEN`, as `agent cloud`
 * uses them); none without one.
 */
export function sharedSlots(options: SharedSlotsOptions): SpineSlots | undefined {
  const { cloud, env, store } = options;
  const spine = cloud ?? spineOf(env);
  if (spine === undefined) return undefined;
  const fetch = cloud?.fetch ?? options.fetch;
  return new SpineSlots({
    url: spine.url,
    token: spine.token,
    // The brain is one per identity and its disk goes with its container: a fixed name,
    // so a new container finds the slots a former one left unsettled.
    hub: cloud === undefined ? store.hubId() : "cloud",
    ...(fetch ? { fetch } : {}),
    ...(options.warn ? { warn: options.warn } : {}),
  });
}
