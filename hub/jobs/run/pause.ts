/**
 * A job's pause shared by the identity's two hubs (the local hub and the cloud brain):
 * with a cloud spine the pauses are the spine's (`job_pauses`), so a job paused on one
 * hub, by the owner or at a ceiling, is paused on the other, and a resume on either
 * resumes both. The job store's paused table mirrors them: each claim of a slot reads
 * them on the spine in the statement that writes it (a refused claim says `paused`), and
 * `agent jobs list` reads them all.
 *
 * When the spine does not answer, this hub's own store decides, leaning to stopping: a
 * pause is kept here and sent before this hub's next claim (or the next `agent jobs
 * list`); a resume is refused with a sentence, as the spine would pause the job again.
 * A spine in local mode (`cloud_mode_off`) has no shared pauses: the store alone
 * decides, as without a cloud.
 *
 * A run that meets a ceiling pauses its job through here too, and tells the owner once
 * (`notice.ts`).
 *
 * @module
 */
import type { SharedSlots, SpineAnswer } from "../spine_slots.ts";
import { ALL_JOBS } from "../pause_store.ts";
import type { JobStore } from "../store.ts";

/** Where a pause or a resume holds. */
export type PauseReach =
  /** On the spine: both hubs. */
  | { kind: "shared" }
  /** No spine, or one in local mode: this home's hubs. */
  | { kind: "local" }
  /** The spine did not answer: this hub only, for now. */
  | { kind: "unreachable"; detail: string };

/**
 * Pauses `job` (`*`: every job) here and on the spine; a pause the spine did not get is
 * kept here and sent later ({@linkcode sendUnsent}). `paused` is `false` when it was
 * paused here already.
 */
export async function pauseShared(
  store: JobStore,
  slots: SharedSlots | undefined,
  pause: { job: string; reason: string; nowMs: number },
): Promise<{ paused: boolean; reach: PauseReach }> {
  const paused = store.pauses.pause(pause.job, pause.reason, pause.nowMs);
  if (slots === undefined) return { paused, reach: { kind: "local" } };
  const answer = await slots.pause(pause.job, pause.reason);
  return { paused, reach: settled(store, pause.job, answer) };
}

/**
 * Resumes `job` (`*`: every job and the global pause) on the spine, then here. When the
 * spine does not answer nothing changes (its pause would pause the job here again at the
 * next slot), unless the pause never reached the spine. With `keepOwn`, `*` lifts only
 * the global pause (what "Pause all" set): a job paused on its own, by the owner or at a
 * ceiling, stays paused (the spine, which drops every row for `*`, is given them again).
 */
export async function resumeShared(
  store: JobStore,
  slots: SharedSlots | undefined,
  job: string,
  keepOwn = false,
): Promise<PauseReach> {
  const kept = keepOwn && job === ALL_JOBS
    ? [...store.pauses.all()].filter(([name]) => name !== ALL_JOBS)
    : [];
  let reach: PauseReach = { kind: "local" };
  if (slots !== undefined) {
    const answer = await slots.resume(job);
    if (answer.kind === "unreachable") {
      const unsent = new Set(store.pauses.unsent().map((r) => r.job));
      const onlyHere = job === ALL_JOBS
        ? [...store.pauses.all().keys()].every((name) => unsent.has(name))
        : unsent.has(job);
      if (!onlyHere) return answer;
    } else if (answer.kind === "ok") {
      reach = { kind: "shared" };
      for (const [name, pause] of kept) await slots.pause(name, pause.reason);
    }
  }
  if (job === ALL_JOBS && !keepOwn) store.pauses.resumeAll();
  else store.pauses.resume(job);
  return reach;
}

/** Sends the pauses the spine has not got yet (stops at the first it does not take). */
export async function sendUnsent(store: JobStore, slots: SharedSlots): Promise<void> {
  for (const row of store.pauses.unsent()) {
    const answer = await slots.pause(row.job, row.reason);
    if (answer.kind === "unreachable") return;
    store.pauses.markSent(row.job);
  }
}

/**
 * Reads the spine's pauses into the store (after sending the unsent ones): `shared`
 * when the store now holds them, `local` without shared pauses, `unreachable` when the
 * store holds what this hub last knew.
 */
export async function syncPauses(
  store: JobStore,
  slots: SharedSlots | undefined,
  nowMs: number,
): Promise<PauseReach & { resumed?: string[]; paused?: string[] }> {
  if (slots === undefined) return { kind: "local" };
  await sendUnsent(store, slots);
  const answer = await slots.pauses();
  if (answer.kind === "off") return { kind: "local" };
  if (answer.kind === "unreachable") return answer;
  return { kind: "shared", ...store.pauses.mirror(answer.value, nowMs) };
}

/**
 * What a claim said of the job's pause, mirrored here: `paused` (by `job`, its name or
 * `*`) pauses it here too; a claim that went through says the spine holds no pause of
 * it, so a pause here that the spine has (had) is lifted. Returns the names resumed.
 */
export function mirrorClaim(
  store: JobStore,
  job: string,
  answer: { kind: "paused"; job: string; reason: string } | { kind: "claimed" },
  nowMs: number,
): string[] {
  if (answer.kind === "paused") {
    store.pauses.pause(answer.job, answer.reason, nowMs);
    store.pauses.markSent(answer.job);
    return [];
  }
  const unsent = new Set(store.pauses.unsent().map((r) => r.job));
  const paused = store.pauses.all();
  const resumed: string[] = [];
  for (const name of [job, ALL_JOBS]) {
    if (paused.has(name) && !unsent.has(name) && store.pauses.resume(name)) resumed.push(name);
  }
  return resumed;
}

function settled(store: JobStore, job: string, answer: SpineAnswer<boolean>): PauseReach {
  if (answer.kind === "unreachable") {
    store.pauses.markUnsent(job);
    return answer;
  }
  store.pauses.markSent(job);
  return answer.kind === "ok" ? { kind: "shared" } : { kind: "local" };
}
