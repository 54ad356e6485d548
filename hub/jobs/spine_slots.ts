/**
 * The slot claims both hubs on one identity share: with a cloud spine (the brain in
 * cloud mode, or a local hub whose home names the spine with `AGENT_SPINE_URL` and
 * `AGENT_SPINE_TOKEN`), a slot is claimed on the spine as well as in the local job
 * store, and the claim reserves the run's ceiling against the job's daily total there
 * (`spine/cloud/jobs_slots.ts`), so the local hub and the cloud brain never run one slot
 * twice nor pass a job's `max_usd_per_day` together. The run is settled to its real
 * cost after. A hub that pauses a job at a ceiling asks the spine before it tells the
 * owner ({@linkcode SharedSlots.notice}), so the owner hears it once across both hubs.
 *
 * A spine that is not in cloud mode (404 `cloud_mode_off`) has no shared slots: the
 * local store alone decides, as for a hub without a cloud. A claim the spine does not
 * answer is tried again for a few seconds; then the slot is not run (at most once, and
 * never past the ceiling, wins over running it).
 *
 * @module
 */
import { pause } from "../backoff.ts";
import { SpineError, SpineHttp } from "../spine_http/mod.ts";

/** A claim's request. */
export interface SlotClaim {
  slotId: string;
  job: string;
  /** The Istanbul midnight the slot's day starts at. */
  dayMs: number;
  /** The job's `max_usd_per_run`, if any. */
  maxRunUsd: number | undefined;
  /** The job's `max_usd_per_day`, if any. */
  dayCapUsd: number | undefined;
  /** The least a run needs to be let through (one run's estimate, at most the run cap). */
  minUsd: number;
  sessionId?: string;
}

/** What the shared slots said. */
export type ClaimAnswer =
  /** This hub runs the slot; with a day cap, `reservedUsd` is the run's ceiling. */
  | { kind: "claimed"; reservedUsd: number }
  /** The other hub holds it. */
  | { kind: "taken" }
  /** The day's ceiling leaves less than a run: `spentUsd` is what the day holds. */
  | { kind: "day"; spentUsd: number }
  /** No shared slots (a spine in local mode): the local store decides. */
  | { kind: "off" }
  /** The spine did not answer: the slot is not run. */
  | { kind: "unreachable"; detail: string };

/** The shared slots, as a run sees them. */
export interface SharedSlots {
  claim(claim: SlotClaim): Promise<ClaimAnswer>;
  /** Replaces the slot's reservation by its cost (tried a few times; logged when it fails). */
  settle(slotId: string, usd: number): Promise<void>;
  /** The slots this hub claimed and has not settled (a former process's, after a crash). */
  running(): Promise<{ slot_id: string; job: string; session_id: string | null }[]>;
  /**
   * Whether this hub tells the owner that it paused `job` (`false`: the other hub told
   * it that day, and the job was not resumed here since). A spine that does not answer,
   * or has no shared slots, answers `true`: told twice beats never told.
   */
  notice(n: SlotNotice): Promise<boolean>;
}

/** A pause to tell, as the shared slots count it: once per job, day and reason. */
export interface SlotNotice {
  job: string;
  /** The Istanbul midnight the pause's day starts at. */
  dayMs: number;
  /** The ceiling that paused it: `day`, `run` or `budget`. */
  reason: string;
  /** When the job was last resumed here (0: never): a notice told before it is told again. */
  sinceMs: number;
}

/** Options for {@linkcode SpineSlots}. */
export interface SpineSlotsOptions {
  url: string;
  token: string;
  /** This hub's name among the hubs of the identity (`cloud`, or the home's `local-…`). */
  hub: string;
  fetch?: typeof fetch;
  /** How many times a request is tried. @default 3 */
  attempts?: number;
  warn?: (line: string) => void;
}

/** The slots on a cloud spine. */
export class SpineSlots implements SharedSlots {
  #http: SpineHttp;
  #o: SpineSlotsOptions;
  #off = false;

  /** The shared slots of the spine at `url`. */
  constructor(options: SpineSlotsOptions) {
    this.#o = options;
    this.#http = new SpineHttp(options.url, {
      token: options.token,
      timeoutMs: 5_000,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  async claim(c: SlotClaim): Promise<ClaimAnswer> {
    if (this.#off) return { kind: "off" };
    let body: { claimed: boolean; reserved_usd?: number; reason?: string; spent_usd?: number };
    try {
      body = await this.#post("/hub/jobs/claim", {
        slot_id: c.slotId,
        job: c.job,
        hub: this.#o.hub,
        day_ms: c.dayMs,
        max_run_usd: c.maxRunUsd ?? null,
        day_cap_usd: c.dayCapUsd ?? null,
        min_usd: c.minUsd,
        ...(c.sessionId === undefined ? {} : { session_id: c.sessionId }),
      }) as typeof body;
    } catch (error) {
      if (error instanceof SpineError && error.status === 404 && error.code === "cloud_mode_off") {
        this.#off = true;
        return { kind: "off" };
      }
      return {
        kind: "unreachable",
        detail: error instanceof Error ? error.message : String(error),
      };
    }
    if (body.claimed) return { kind: "claimed", reservedUsd: body.reserved_usd ?? 0 };
    if (body.reason === "day") return { kind: "day", spentUsd: body.spent_usd ?? 0 };
    return { kind: "taken" };
  }

  async settle(slotId: string, usd: number): Promise<void> {
    if (this.#off) return;
    try {
      await this.#post("/hub/jobs/settle", { slot_id: slotId, hub: this.#o.hub, usd });
    } catch (error) {
      // The reservation stays on the spine: the day counts more than it cost, never less.
      this.#o.warn?.(
        `jobs: cannot settle ${slotId} on the spine (${
          error instanceof Error ? error.message : String(error)
        }); its reservation stays counted today`,
      );
    }
  }

  async running(): Promise<{ slot_id: string; job: string; session_id: string | null }[]> {
    if (this.#off) return [];
    try {
      const answer = await this.#http.request(
        `/hub/jobs/running?hub=${encodeURIComponent(this.#o.hub)}`,
      );
      return (answer.body as {
        slots: { slot_id: string; job: string; session_id: string | null }[];
      })
        .slots;
    } catch (error) {
      if (error instanceof SpineError && error.status === 404 && error.code === "cloud_mode_off") {
        this.#off = true;
      }
      return [];
    }
  }

  async notice(n: SlotNotice): Promise<boolean> {
    if (this.#off) return true;
    try {
      const body = await this.#post("/hub/jobs/notice", {
        job: n.job,
        day_ms: n.dayMs,
        reason: n.reason,
        hub: this.#o.hub,
        since_ms: Math.max(0, Math.floor(n.sinceMs)),
      }) as { tell?: unknown };
      return body.tell !== false;
    } catch (error) {
      if (error instanceof SpineError && error.status === 404 && error.code === "cloud_mode_off") {
        this.#off = true;
      } else {
        this.#o.warn?.(
          `jobs: cannot ask the spine whether the pause of ${n.job} was told (${
            error instanceof Error ? error.message : String(error)
          }); told here`,
        );
      }
      return true;
    }
  }

  async #post(path: string, json: unknown): Promise<unknown> {
    const attempts = this.#o.attempts ?? 3;
    for (let i = 0;; i++) {
      try {
        return (await this.#http.request(path, { method: "POST", json })).body;
      } catch (error) {
        if (!(error instanceof SpineError) || !error.transient || i + 1 >= attempts) throw error;
        await pause(500 * 2 ** i);
      }
    }
  }
}
