/**
 * The slot claims both hubs on one identity share: with a cloud spine (the brain in
 * cloud mode, or a local hub whose home names the spine with `AGENT_SPINE_URL` and
 * `AGENT_SPINE_TOKEN`), a slot is claimed on the spine as well as in the local job
 * store, and the claim reserves the run's ceiling against the job's daily total there
 * (`spine/cloud/jobs_slots.ts`), so the local hub and the cloud brain never run one slot
 * twice nor pass a job's `max_usd_per_day` together. The run is settled to its real
 * cost after. A hub that pauses a job at a ceiling asks the spine before it tells the
 * owner ({@linkcode SharedSlots.notice}), so the owner hears it once across both hubs.
 * Pauses are shared too ({@linkcode SharedSlots.pause}, `resume`, `pauses`): a claim of
 * a paused job (or of any job while `*` is paused) is refused `paused`, so both hubs see
 * a pause or a resume at their next slot without a request of their own.
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
  /** Paused on the spine: `job` is the job's name, or `*` when every job is paused. */
  | { kind: "paused"; job: string; reason: string }
  /** The day's ceiling leaves less than a run: `spentUsd` is what the day holds. */
  | { kind: "day"; spentUsd: number }
  /** No shared slots (a spine in local mode): the local store decides. */
  | { kind: "off" }
  /** The spine did not answer: the slot is not run. */
  | { kind: "unreachable"; detail: string };

/** What the spine said to a pause, a resume or a listing of pauses. */
export type SpineAnswer<T> =
  | { kind: "ok"; value: T }
  /** A spine in local mode: the local job store alone decides. */
  | { kind: "off" }
  | { kind: "unreachable"; detail: string };

/** A pause on the spine. */
export interface SharedPause {
  /** A job's name, or `*` (every job). */
  job: string;
  /** `owner`, `day`, `run` or `budget`. */
  reason: string;
  /** The hub that paused it. */
  hub: string;
  ts: number;
}

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
  /** Pauses `job` (`*`: every job) for both hubs; `ok` says whether it was newly paused. */
  pause(job: string, reason: string): Promise<SpineAnswer<boolean>>;
  /** Resumes `job` (`*`: every job, and the global pause); `ok` says whether one was paused. */
  resume(job: string): Promise<SpineAnswer<boolean>>;
  /** The pauses both hubs share. */
  pauses(): Promise<SpineAnswer<SharedPause[]>>;
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

/**
 * The cloud spine a home names (`AGENT_SPINE_URL` and `AGENT_SPINE_TOKEN`, the variables
 * `agent cloud` uses), if both are set.
 */
export function spineOf(
  env: Readonly<Record<string, string | undefined>>,
): { url: string; token: string } | undefined {
  const url = env.AGENT_SPINE_URL?.trim();
  const token = env.AGENT_SPINE_TOKEN?.trim();
  return url && token ? { url, token } : undefined;
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
    const answer = await this.#ask(() =>
      this.#post("/hub/jobs/claim", {
        slot_id: c.slotId,
        job: c.job,
        hub: this.#o.hub,
        day_ms: c.dayMs,
        max_run_usd: c.maxRunUsd ?? null,
        day_cap_usd: c.dayCapUsd ?? null,
        min_usd: c.minUsd,
        ...(c.sessionId === undefined ? {} : { session_id: c.sessionId }),
      }) as Promise<{
        claimed: boolean;
        reserved_usd?: number;
        reason?: string;
        spent_usd?: number;
        job?: string;
        by?: string;
      }>
    );
    if (answer.kind !== "ok") return answer;
    const body = answer.value;
    if (body.claimed) return { kind: "claimed", reservedUsd: body.reserved_usd ?? 0 };
    if (body.reason === "paused") {
      return { kind: "paused", job: String(body.job ?? c.job), reason: String(body.by ?? "owner") };
    }
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

  pause(job: string, reason: string): Promise<SpineAnswer<boolean>> {
    return this.#ask(async () => {
      const body = await this.#post("/hub/jobs/pause", { job, reason, hub: this.#o.hub });
      return (body as { paused?: unknown }).paused === true;
    });
  }

  resume(job: string): Promise<SpineAnswer<boolean>> {
    return this.#ask(async () => {
      const body = await this.#post("/hub/jobs/resume", { job });
      return (body as { resumed?: unknown }).resumed === true;
    });
  }

  pauses(): Promise<SpineAnswer<SharedPause[]>> {
    return this.#ask(async () => {
      const answer = await this.#http.request("/hub/jobs/pauses");
      return (answer.body as { pauses: SharedPause[] }).pauses;
    });
  }

  /** `ask()`'s value, or `off` (a local-mode spine, remembered) or `unreachable`. */
  async #ask<T>(ask: () => Promise<T>): Promise<SpineAnswer<T>> {
    if (this.#off) return { kind: "off" };
    try {
      return { kind: "ok", value: await ask() };
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
