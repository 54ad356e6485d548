import assert from "node:assert/strict";
import { Logger } from "../log.ts";
import { DeliveryError, type DeliverySinks, DeliveryWorker } from "./delivery.ts";
import type { DeliveryTarget } from "./delivery_store.ts";
import { type SpineDelivery, SpineOutbox } from "./spine_outbox.ts";
import { JobStore } from "./store.ts";
import { until } from "../../tests/_poll.ts";

/** A spine stand-in at the fetch seam: it keeps what is written and can be made to fail. */
function fakeSpine() {
  const state = {
    down: false,
    deliveries: new Map<string, SpineDelivery>(),
    runs: [] as Record<string, unknown>[],
    writes: 0,
    /** Every delivery row written, in order. */
    history: [] as SpineDelivery[],
  };
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (state.down) throw new TypeError("connection refused");
    if (url.pathname === "/hub/jobs/deliveries" && init?.method === "POST") {
      state.writes++;
      const { rows } = JSON.parse(String(init.body)) as { rows: SpineDelivery[] };
      for (const r of rows) state.deliveries.set(`${r.slot_id} ${r.target}`, r);
      state.history.push(...rows);
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

function answer(
  store: JobStore,
  slot: string,
  now: number,
  targets: DeliveryTarget[] = ["chat:42"],
): void {
  store.claim(slot, "news", now, now);
  store.finish(slot, { state: "ok", usd: 0.002, nowMs: now, detail: "Done." }, {
    job: "news",
    text: "Job news ($0.0020):\nDone.",
    usd: 0.002,
    deliver: "messenger",
    targets,
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
      assert.ok(performance.now() - started < 1_000);
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

/** One container of the brain: its own store, outbox and delivery worker, as `jobs_service.ts` wires them. */
function container(store: JobStore, fetch: typeof globalThis.fetch, sinks: DeliverySinks) {
  const outbox = new SpineOutbox({
    url: "http://spine.test",
    token: "hub-token-0123456789",
    fetch,
  });
  const worker = new DeliveryWorker({
    store: store.deliveries,
    sinks,
    lang: "en",
    logger: new Logger({ stderr: "off" }),
    alive: () => true,
    now: Date.now,
    retryBaseMs: 20,
    changed: (row) => outbox.delivery(row),
  });
  outbox.follow(store, worker);
  return { outbox, worker };
}

/** The event stream and the chat of one container: what each got. */
function sinksOf(published: string[], chats: string[], failPublish = 0): DeliverySinks {
  let fails = failPublish;
  return {
    events: {
      publish(e) {
        if (fails-- > 0) return Promise.reject(new DeliveryError("disk full"));
        published.push(e.slot_id);
        return Promise.resolve();
      },
      // A container's events file: empty in a new one.
      has: (id) => Promise.resolve(published.includes(id)),
    },
    chat: {
      parts: (text) => [text],
      send(chat) {
        chats.push(chat);
        return Promise.resolve();
      },
    },
  };
}

Deno.test("SpineOutbox.follow(): the event is published before the spine hears of the answer; a new container does not publish it again", async () => {
  await withStore(async (old) => {
    await withStore(async (fresh) => {
      const spine = fakeSpine();
      const published: string[] = [];
      const first = container(old, spine.fetch, {
        events: {
          publish(e) {
            // Nothing of this answer is on the spine yet.
            assert.deepEqual(spine.state.history, []);
            published.push(e.slot_id);
            return Promise.resolve();
          },
          has: (id) => Promise.resolve(published.includes(id)),
        },
      });
      const again: string[] = [];
      const chats: string[] = [];
      const second = container(fresh, spine.fetch, sinksOf(again, chats));
      try {
        answer(old, "news@1", Date.now(), ["events", "chat:42"]);
        await until("the answer on the spine", () => spine.state.deliveries.size === 2);
        assert.deepEqual(published, ["news@1"]);
        // The spine's first copy of the events target says it is sent: there is no moment
        // in which a container that dies leaves it pending there after publishing it.
        assert.deepEqual(
          spine.state.history.filter((r) => r.target === "events").map((r) => r.state),
          ["sent"],
        );
        assert.equal(spine.state.deliveries.get("news@1 chat:42")?.state, "pending");
        // The container dies here (its worker never sent the chat); a new one starts empty.
        await first.outbox.close(0);
        await second.outbox.pull(fresh, Date.now());
        await second.worker.once();
        assert.deepEqual(again, [], "the new container published the event again");
        assert.deepEqual(chats, ["42"]);
        assert.equal(fresh.deliveries.get("news@1", "chat:42")?.state, "sent");
      } finally {
        await first.worker.stop();
        await second.worker.stop();
        await first.outbox.close(0);
        await second.outbox.close(0);
      }
    });
  });
});

Deno.test("SpineOutbox.follow(): an event that could not be published is pending on the spine and a new container publishes it", async () => {
  await withStore(async (old) => {
    await withStore(async (fresh) => {
      const spine = fakeSpine();
      const published: string[] = [];
      const first = container(old, spine.fetch, sinksOf(published, [], 1));
      const again: string[] = [];
      const second = container(fresh, spine.fetch, sinksOf(again, []));
      try {
        answer(old, "news@1", Date.now(), ["events"]);
        await until("the answer on the spine", () => spine.state.deliveries.size === 1);
        assert.deepEqual(published, []);
        const kept = spine.state.deliveries.get("news@1 events")!;
        assert.deepEqual([kept.state, kept.attempts], ["pending", 1]);
        await first.outbox.close(0);
        await second.outbox.pull(fresh, Date.now());
        await second.worker.once();
        assert.deepEqual(again, ["news@1"]);
        await second.outbox.close(5_000);
        assert.equal(spine.state.deliveries.get("news@1 events")?.state, "sent");
      } finally {
        await first.worker.stop();
        await second.worker.stop();
        await first.outbox.close(0);
        await second.outbox.close(0);
      }
    });
  });
});

Deno.test("SpineOutbox.follow(): with the spine down the event is published at once, and goes to the spine as sent when it is back", async () => {
  await withStore(async (store) => {
    const spine = fakeSpine();
    spine.state.down = true;
    const published: string[] = [];
    const { outbox, worker } = container(store, spine.fetch, sinksOf(published, []));
    try {
      answer(store, "news@1", Date.now(), ["events"]);
      await until("the event", () => published.length === 1);
      assert.equal(store.deliveries.get("news@1", "events")?.state, "sent");
      spine.state.down = false;
      await outbox.close(5_000);
      assert.deepEqual(spine.state.history.map((r) => r.state), ["sent"]);
    } finally {
      await worker.stop();
      await outbox.close(0);
    }
  });
});
