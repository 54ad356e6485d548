import assert from "node:assert/strict";
import { type JobHome, jobHome } from "../_testing.ts";
import { pauseShared, resumeShared, syncPauses } from "./pause.ts";
import { runJob } from "./run.ts";
import type { SharedPause, SharedSlots } from "../spine_slots.ts";
import { ALL_JOBS } from "../pause_store.ts";
import type { JobRunContext } from "./context.ts";

const SLOT = Date.UTC(2026, 0, 1, 5);

/**
 * The spine's job routes as two hubs see them, in memory: a claim of a paused job (or
 * of any while `*` is) is refused `paused`, as `POST /hub/jobs/claim` does in one
 * statement (its SQL is tested on workerd in `tests/jobs/`).
 */
function memorySpine() {
  const pauses = new Map<string, SharedPause>();
  const held = new Set<string>();
  const state = { down: false, off: false };
  const unreachable = { kind: "unreachable" as const, detail: "connection refused" };
  function hub(name: string): SharedSlots {
    const answer = <T>(value: T) =>
      Promise.resolve(
        state.off
          ? { kind: "off" as const }
          : state.down
          ? unreachable
          : { kind: "ok" as const, value },
      );
    return {
      claim(c) {
        if (state.off) return Promise.resolve({ kind: "off" });
        if (state.down) return Promise.resolve(unreachable);
        if (held.has(c.slotId)) return Promise.resolve({ kind: "taken" });
        const pause = pauses.get(ALL_JOBS) ?? pauses.get(c.job);
        if (pause !== undefined) {
          return Promise.resolve({ kind: "paused", job: pause.job, reason: pause.reason });
        }
        held.add(c.slotId);
        return Promise.resolve({ kind: "claimed", reservedUsd: c.maxRunUsd ?? 0 });
      },
      settle: () => Promise.resolve(),
      running: () => Promise.resolve([]),
      notice: () => Promise.resolve(true),
      pause(job, reason) {
        const fresh = !state.down && !state.off && !pauses.has(job);
        if (fresh) pauses.set(job, { job, reason, hub: name, ts: Date.now() });
        return answer(fresh);
      },
      resume(job) {
        if (state.down || state.off) return answer(false);
        const had = job === ALL_JOBS ? pauses.size > 0 : pauses.has(job);
        if (job === ALL_JOBS) pauses.clear();
        else pauses.delete(job);
        return answer(had);
      },
      pauses: () => answer([...pauses.values()]),
    };
  }
  return { hub, pauses, state };
}

async function twoHubs(): Promise<
  & { a: JobHome; b: JobHome; ctxA: JobRunContext; ctxB: JobRunContext }
  & ReturnType<
    typeof memorySpine
  >
> {
  const spine = memorySpine();
  const a = await jobHome();
  const b = await jobHome();
  return {
    ...spine,
    a,
    b,
    ctxA: { ...a.ctx, slots: spine.hub("local-a") },
    ctxB: { ...b.ctx, slots: spine.hub("cloud") },
  };
}

Deno.test("pauseShared() --all on one hub stops the other's next slot; resumeShared() on the other resumes both", async () => {
  const { a, b, ctxA, ctxB, pauses } = await twoHubs();
  try {
    const jobA = await a.write({ name: "news" });
    const jobB = await b.write({ name: "news" });
    assert.deepEqual(
      await pauseShared(a.store, ctxA.slots, { job: ALL_JOBS, reason: "owner", nowMs: 1 }),
      { paused: true, reach: { kind: "shared" } },
    );
    assert.equal(pauses.get(ALL_JOBS)?.hub, "local-a");
    // B never paused anything itself: its claim is refused, the pause mirrored, no row.
    assert.partialDeepStrictEqual(await runJob(ctxB, jobB, SLOT), {
      kind: "paused",
      job: "*",
      reason: "owner",
    });
    assert.equal(b.store.log().length, 0);
    assert.equal(b.store.pauses.all().get(ALL_JOBS)?.reason, "owner");
    // Resumed on B: A's next slot runs, and A's copy of the pause is lifted.
    const before = Date.now();
    assert.deepEqual(await resumeShared(b.store, ctxB.slots, ALL_JOBS), { kind: "shared" });
    assert.equal(pauses.size, 0);
    assert.ok(a.store.pauses.all().has(ALL_JOBS));
    assert.equal((await runJob(ctxA, jobA, SLOT + 1000)).kind, "ok");
    assert.equal(a.store.pauses.all().size, 0);
    // A pause told again after this is news: the resume counts here too.
    assert.ok(a.store.pauses.resumedAt(ALL_JOBS) >= before);
    // One job by name, the same way.
    await pauseShared(b.store, ctxB.slots, { job: "news", reason: "owner", nowMs: 2 });
    assert.partialDeepStrictEqual(await runJob(ctxA, jobA, SLOT + 2000), {
      kind: "paused",
      job: "news",
      reason: "owner",
    });
    assert.equal(a.store.pauses.all().get("news")?.reason, "owner");
  } finally {
    await a.close();
    await b.close();
  }
});

Deno.test("runJob() pauses a job at a ceiling on both hubs, told once", async () => {
  const { a, b, ctxA, ctxB, pauses } = await twoHubs();
  try {
    const jobA = await a.write({ name: "tight", max_usd_per_run: 0.001 });
    const jobB = await b.write({ name: "tight", max_usd_per_run: 0.001 });
    assert.equal((await runJob(ctxA, jobA, SLOT)).kind, "failed");
    assert.equal(pauses.get("tight")?.reason, "run");
    assert.partialDeepStrictEqual(await runJob(ctxB, jobB, SLOT + 1000), {
      kind: "paused",
      job: "tight",
      reason: "run",
    });
    assert.equal(b.store.pauses.all().get("tight")?.reason, "run");
    assert.equal(a.events.filter((e) => e.type === "job.notice").length, 1);
    assert.equal(b.events.filter((e) => e.type === "job.notice").length, 0);
    assert.equal(b.store.log().length, 0);
  } finally {
    await a.close();
    await b.close();
  }
});

Deno.test("pauseShared() keeps a pause the spine did not get and sends it before the next claim", async () => {
  const { a, b, ctxA, ctxB, pauses, state } = await twoHubs();
  try {
    const jobA = await a.write({ name: "news" });
    const jobB = await b.write({ name: "news" });
    state.down = true;
    const paused = await pauseShared(a.store, ctxA.slots, {
      job: "news",
      reason: "owner",
      nowMs: 1,
    });
    assert.deepEqual(paused.reach, { kind: "unreachable", detail: "connection refused" });
    assert.deepEqual(a.store.pauses.unsent().map((r) => r.job), ["news"]);
    // The spine is silent: the pause here holds (no row, no missed slot logged).
    assert.partialDeepStrictEqual(await runJob(ctxA, jobA, SLOT), {
      kind: "paused",
      job: "news",
      reason: "owner",
    });
    assert.equal(a.store.log().length, 0);
    // A resume while it is silent changes nothing when the spine has the pause...
    await pauseShared(b.store, ctxB.slots, { job: ALL_JOBS, reason: "owner", nowMs: 1 });
    state.down = false;
    await syncPauses(b.store, ctxB.slots, 2);
    state.down = true;
    assert.equal(pauses.size, 1);
    assert.equal((await resumeShared(b.store, ctxB.slots, ALL_JOBS)).kind, "unreachable");
    assert.ok(b.store.pauses.all().has(ALL_JOBS));
    state.down = false;
    assert.deepEqual(await resumeShared(b.store, ctxB.slots, ALL_JOBS), { kind: "shared" });
    // ...and back, A's next claim sends its pause first: both hubs hold it.
    assert.partialDeepStrictEqual(await runJob(ctxA, jobA, SLOT + 1000), {
      kind: "paused",
      job: "news",
      reason: "owner",
    });
    assert.deepEqual(a.store.pauses.unsent(), []);
    assert.equal(pauses.get("news")?.hub, "local-a");
    assert.partialDeepStrictEqual(await runJob(ctxB, jobB, SLOT + 2000), {
      kind: "paused",
      job: "news",
      reason: "owner",
    });
    // A pause that never reached the spine is resumed here while it is silent.
    state.down = true;
    await pauseShared(b.store, ctxB.slots, { job: "other", reason: "owner", nowMs: 3 });
    assert.equal((await resumeShared(b.store, ctxB.slots, "other")).kind, "local");
    assert.equal(b.store.pauses.all().has("other"), false);
  } finally {
    await a.close();
    await b.close();
  }
});

Deno.test("runJob() lets the local store decide when the spine has no shared pauses", async () => {
  const { a, b, ctxA, state } = await twoHubs();
  try {
    const job = await a.write({ name: "news" });
    state.off = true;
    const paused = await pauseShared(a.store, ctxA.slots, {
      job: "news",
      reason: "owner",
      nowMs: 1,
    });
    assert.deepEqual(paused.reach, { kind: "local" });
    assert.deepEqual(a.store.pauses.unsent(), []);
    assert.partialDeepStrictEqual(await runJob(ctxA, job, SLOT), {
      kind: "paused",
      job: "news",
      reason: "owner",
    });
    assert.equal(a.store.log().length, 0);
    assert.deepEqual(await syncPauses(a.store, ctxA.slots, 2), { kind: "local" });
    assert.deepEqual(await resumeShared(a.store, ctxA.slots, "news"), { kind: "local" });
    assert.equal((await runJob(ctxA, job, SLOT + 1000)).kind, "ok");
  } finally {
    await a.close();
    await b.close();
  }
});

Deno.test("PauseStore.mirror() takes the spine's pauses but keeps the unsent ones", async () => {
  const home = await jobHome();
  try {
    const { store } = home;
    store.pauses.pause("gone", "day", 1);
    store.pauses.pause("mine", "owner", 1);
    store.pauses.markUnsent("mine");
    const changed = store.pauses.mirror([{ job: "new", reason: "budget", ts: 5 }], 10);
    assert.deepEqual(changed, { paused: ["new"], resumed: ["gone"] });
    assert.deepEqual([...store.pauses.all().keys()].sort(), ["mine", "new"]);
    assert.ok(store.pauses.resumedAt("gone") > 0);
  } finally {
    await home.close();
  }
});
