/**
 * Which shared slots a process that runs jobs uses: the hub (`jobs_service.ts`) and
 * `agent jobs run` (`jobs_run_now.ts`) alike, so a run by hand claims and settles its
 * slot on the spine exactly as a scheduled one does and counts in the job's day on
 * both hubs of the identity.
 *
 * @module
 */
import type { Logger } from "../log.ts";
import { spineOf, SpineSlots } from "../jobs/spine_slots.ts";
import type { JobStore } from "../jobs/store.ts";

/** Options for {@linkcode sharedSlots}. */
export interface SharedSlotsOptions {
  /** The brain's own spine (`agent cloud run`); absent for a local hub. */
  cloud?: { url: string; token: string; fetch?: typeof fetch } | undefined;
  env: Readonly<Record<string, string | undefined>>;
  store: JobStore;
  logger: Logger;
}

/**
 * The slots shared with the identity's other hub: the cloud brain's spine, or the cloud
 * spine a local home names (`AGENT_SPINE_URL`, `AGENT_SPINE_TOKEN`, as `agent cloud`
 * uses them); none without one.
 */
export function sharedSlots(options: SharedSlotsOptions): SpineSlots | undefined {
  const { cloud, env, store, logger } = options;
  const spine = cloud ?? spineOf(env);
  if (spine === undefined) return undefined;
  return new SpineSlots({
    url: spine.url,
    token: spine.token,
    // The brain is one per identity and its disk goes with its container: a fixed name,
    // so a new container finds the slots a former one left unsettled.
    hub: cloud === undefined ? store.hubId() : "cloud",
    ...(cloud?.fetch ? { fetch: cloud.fetch } : {}),
    warn: (line) => logger.warn(line),
  });
}
