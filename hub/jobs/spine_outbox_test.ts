import assert from "node:assert/strict";
import { type SpineDelivery, SpineOutbox } from "./spine_outbox.ts";
import { JobStore } from "./store.ts";

/** A spine stand-in at the fetch seam: it keeps what is written and can be made to fail. */
function fakeSpine() {
  const state = {
    down: false,
    deliveries: new Map<string, SpineDelivery>(),
    runs: [] as Record<string, unknown>[],
    writes: 0,
  };
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (state.down) throw new TypeError("connection refused");
    if (url.pathname === "/hub/jobs/deliveries" && init?.method === "POST") {
      state.writes++;
      const { rows } = JSON.parse(String(init.body)) as { rows: SpineDelivery[] };
      for (const r of rows) state.deliveries.set(`${r.slot_id} ${r.target}`, r);
      return Response.json({ stored: rows.length });
    }
    if (url.pathname === "/hub/jobs/deliveries") {
      return Response.json({ deliveries: [...state.deliveries.values()] });
    }
    if (url.pathname === "/hub/jobs/log" && init?.method === "POST") {
      state.runs.push(...(JSON.parse(String(init.body)) as { rows: [] }).rows);
      return Response.json({ stored: 1 });
    }
    if (url.pathname === "/hub/jobs/log") return Response.json({ runs: state.runs });
    await Promise.resolve();
    return Response.json({ error: "not_found" }, { status: 404 });
  };
  return { state, fetch: fetch as typeof globalThis.fetch };
}

async function withStore(fn: (store: JobStore) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "agent-outbox-" });
  const store = JobStore.open(`${dir}/jobs.sqlite3`);
  try {
    await fn(store);
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
}

function answer(store: JobStore, slot: string, now: number): void {
  store.claim(slot, "news", now, now);
  store.finish(slot, { state: "ok", usd: 0.002, nowMs: now, detail: "Done." }, {
    job: "news",
    text: "Job news ($0.0020):\nDone.",
    usd: 0.002,
    deliver: "messenger",
    targets: ["chat:42"],
  });
}

Deno.test("spine outbox: a write the spine does not take waits, and goes with its newest state", async () => {
  await withStore(async (store) => {
    const spine = fakeSpine();
    const warned: string[] = [];
    const outbox = new SpineOutbox({
      url: "http://spine.test",
      token: "hub-token-0123456789",
      fetch: spine.fetch,
      warn: (l) => warned.push(l),
    });
    try {
      answer(store, "news@1", Date.now());
      const row = store.deliveries.get("news@1", "chat:42")!;
      spine.state.down = true;
      assert.equal(await outbox.delivery(row), false);
      assert.equal(warned.length, 1);
      assert.match(warned[0]!, /cannot write 1 answer\(s\) .*connection refused\); retrying$/);
      // In the outage a change is not waited for; the newest state replaces the queued one.
      store.deliveries.partSent(row, 1, true, Date.now());
      const started = performance.now();
      assert.equal(await outbox.delivery(store.deliveries.get("news@1", "chat:42")!), false);
      assert.ok(performance.now() - started < 50);
      assert.equal(outbox.queued, 1);
      spine.state.down = false;
      await outbox.close(5_000);
      assert.equal(outbox.queued, 0);
      const kept = spine.state.deliveries.get("news@1 chat:42")!;
      assert.equal(kept.state, "sent");
      assert.equal(kept.parts_sent, 1);
    } finally {
      await outbox.close(0);
    }
  });
});

Deno.test("spine outbox: an answer sent here that the spine still holds as pending is written again at the next start", async () => {
  await withStore(async (store) => {
    const spine = fakeSpine();
    const now = Date.now();
    answer(store, "news@1", now);
    const outbox = new SpineOutbox({
      url: "http://spine.test",
      token: "hub-token-0123456789",
      fetch: spine.fetch,
    });
    const next = new SpineOutbox({
      url: "http://spine.test",
      token: "hub-token-0123456789",
      fetch: spine.fetch,
    });
    try {
      assert.equal(await outbox.delivery(store.deliveries.get("news@1", "chat:42")!), true);
      // Sent here; the process stops before the spine hears of it.
      store.deliveries.partSent(store.deliveries.get("news@1", "chat:42")!, 1, true, now);
      assert.equal(spine.state.deliveries.get("news@1 chat:42")!.state, "pending");
      await next.pull(store, now);
      assert.equal(store.deliveries.get("news@1", "chat:42")!.state, "sent");
      await next.close(5_000);
      assert.equal(spine.state.deliveries.get("news@1 chat:42")!.state, "sent");
    } finally {
      await outbox.close(0);
      await next.close(0);
    }
  });
});

Deno.test("spine outbox: pull reads the pending answers and the log into an empty store, and sends the store's own", async () => {
  await withStore(async (fresh) => {
    const spine = fakeSpine();
    const now = Date.now();
    spine.state.deliveries.set("news@1 chat:42", {
      slot_id: "news@1",
      target: "chat:42",
      job: "news",
      text: "a|b",
      usd: 0.002,
      deliver: "messenger",
      created_ms: now - 60_000,
      state: "pending",
      parts_sent: 1,
      attempts: 2,
      next_ms: now + 300_000,
      last_error: "the Bot API answered 502 Bad Gateway",
      done_ms: null,
    });
    spine.state.runs.push({
      slot_id: "news@1",
      job: "news",
      slot_ms: now - 60_000,
      claimed_ms: now - 60_000,
      state: "ok",
      missed: 0,
      usd: 0.002,
      finished_ms: now - 59_000,
      detail: "Done.",
      session_id: null,
    });
    // This store's own answer the spine has not got (a former process stopped first).
    answer(fresh, "news@2", now);
    const outbox = new SpineOutbox({
      url: "http://spine.test",
      token: "hub-token-0123456789",
      fetch: spine.fetch,
    });
    try {
      assert.deepEqual(await outbox.pull(fresh, now), { deliveries: 1, runs: 1 });
      const row = fresh.deliveries.get("news@1", "chat:42")!;
      assert.equal(row.parts_sent, 1);
      assert.equal(row.attempts, 2);
      // Due at once: a new container is the time to try again.
      assert.equal(row.next_ms, now);
      assert.deepEqual(fresh.log("news").map((r) => [r.slot_id, r.state, r.missed]), [
        ["news@2", "ok", false],
        ["news@1", "ok", false],
      ]);
      // A slot the log holds (from the spine) is no orphan of this process.
      assert.deepEqual(fresh.orphans(() => false), []);
      await outbox.close(5_000);
      assert.ok(spine.state.deliveries.has("news@2 chat:42"));
      assert.ok(spine.state.runs.some((r) => r.slot_id === "news@2"));
    } finally {
      await outbox.close(0);
    }
  });
});
