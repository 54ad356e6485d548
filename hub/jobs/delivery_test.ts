import assert from "node:assert/strict";
import { Logger } from "../log.ts";
import { DeliveryError, type DeliverySinks, DeliveryWorker } from "./delivery.ts";
import { JobStore } from "./store.ts";
import { until } from "../../tests/_poll.ts";

interface Sent {
  chat: string;
  part: string;
}

/** A job store with one finished slot whose answer waits for `targets`. */
async function fixture(
  targets: ("events" | `chat:${string}`)[],
  text = "Job news ($0.0020):\nDone.",
  createdMs = Date.now(),
) {
  const dir = await Deno.makeTempDir({ prefix: "agent-delivery-" });
  const store = JobStore.open(`${dir}/jobs.sqlite3`);
  store.claim("news@1", "news", 1, createdMs);
  store.finish("news@1", { state: "ok", usd: 0.002, nowMs: createdMs }, {
    job: "news",
    text,
    usd: 0.002,
    deliver: "messenger",
    targets,
  });
  return {
    store,
    async close() {
      store.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

function worker(store: JobStore, sinks: DeliverySinks, now = Date.now) {
  return new DeliveryWorker({
    store: store.deliveries,
    sinks,
    lang: "en",
    logger: new Logger({ stderr: "off" }),
    alive: () => true,
    now,
    retryBaseMs: 20,
  });
}

function chatSink(sent: Sent[], fail: (n: number) => Error | undefined, max = 4096) {
  let calls = 0;
  return {
    parts: (text: string) => text.match(new RegExp(`[^]{1,${max}}`, "g")) ?? [],
    send(chat: string, part: string) {
      const error = fail(calls++);
      if (error) return Promise.reject(error);
      sent.push({ chat, part });
      return Promise.resolve();
    },
  };
}

Deno.test("DeliveryWorker retries a failing chat with backoff and delivers once", async () => {
  const f = await fixture(["events", "chat:42"]);
  const sent: Sent[] = [];
  const published: string[] = [];
  const w = worker(f.store, {
    events: {
      publish: (e) => Promise.resolve(published.push(e.slot_id)),
      has: (id) => Promise.resolve(published.includes(id)),
    },
    chat: chatSink(sent, (n) => n < 3 ? new DeliveryError("HTTP 502") : undefined),
  });
  try {
    w.start();
    await until(
      "the chat's delivery",
      () => f.store.deliveries.get("news@1", "chat:42")?.state === "sent",
    );
    assert.deepEqual(sent, [{ chat: "42", part: "Job news ($0.0020):\nDone." }]);
    assert.deepEqual(published, ["news@1"]);
    assert.equal(f.store.deliveries.get("news@1", "chat:42")?.attempts, 3);
    // Nothing is left to send: a later pass sends nothing.
    await w.once();
    assert.equal(sent.length, 1);
  } finally {
    await w.stop();
    await f.close();
  }
});

Deno.test("DeliveryWorker drops a refused send at once and tells the owner once", async () => {
  const f = await fixture(["chat:42"]);
  const notices: string[] = [];
  const w = worker(f.store, {
    chat: chatSink([], () => new DeliveryError("Forbidden: bot was blocked", { permanent: true })),
    notice: (_job, text) => Promise.resolve(void notices.push(text)),
  });
  try {
    await w.once();
    await w.once();
    assert.equal(f.store.deliveries.get("news@1", "chat:42")?.state, "dropped");
    assert.equal(notices.length, 1);
    assert.match(notices[0]!, /^The answer of job news \(.+\) could not be delivered to 42: /);
  } finally {
    await w.stop();
    await f.close();
  }
});

Deno.test("DeliveryWorker gives up after 24 hours of failed sends", async () => {
  const day = 24 * 3_600_000;
  const f = await fixture(["chat:42"], "x", Date.now() - day - 1);
  const notices: string[] = [];
  const w = worker(f.store, {
    chat: chatSink([], () => new DeliveryError("HTTP 502")),
    notice: (_job, text) => Promise.resolve(void notices.push(text)),
  });
  try {
    await w.once();
    const row = f.store.deliveries.get("news@1", "chat:42");
    assert.equal(row?.state, "dropped");
    assert.equal(row?.last_error, "HTTP 502");
    assert.equal(notices.length, 1);
  } finally {
    await w.stop();
    await f.close();
  }
});

Deno.test("DeliveryWorker resumes after the last marked part and voids a dead sender's lease", async () => {
  const f = await fixture(["chat:42"], "aaaabbbbcc");
  const sent: Sent[] = [];
  const sinks = { chat: chatSink(sent, () => undefined, 4) };
  const w = worker(f.store, sinks);
  try {
    const row = f.store.deliveries.get("news@1", "chat:42")!;
    // A process that is alive holds it: nobody else sends.
    f.store.deliveries.lease(row, Date.now());
    f.store.deliveries.partSent(row, 1, false, Date.now());
    await w.once();
    assert.equal(sent.length, 0);
    // That process died after its first part was marked: its lease is void at a start.
    assert.equal(f.store.deliveries.voidLeases(() => false), 1);
    await w.once();
    assert.deepEqual(sent.map((s) => s.part), ["bbbb", "cc"]);
    assert.equal(f.store.deliveries.get("news@1", "chat:42")?.state, "sent");
  } finally {
    await w.stop();
    await f.close();
  }
});

Deno.test("DeliveryWorker does not publish an event again that the stream holds", async () => {
  const f = await fixture(["events"]);
  const published: string[] = ["news@1"];
  let calls = 0;
  const w = worker(f.store, {
    events: {
      publish: (e) => {
        calls++;
        return Promise.resolve(published.push(e.slot_id));
      },
      has: (id) => Promise.resolve(published.includes(id)),
    },
  });
  try {
    // As if a stopped process had published it and died before its mark.
    const row = f.store.deliveries.get("news@1", "events")!;
    f.store.deliveries.lease(row, Date.now());
    f.store.deliveries.voidLeases(() => false);
    await w.once();
    assert.equal(calls, 0);
    assert.equal(f.store.deliveries.get("news@1", "events")?.state, "sent");
  } finally {
    await w.stop();
    await f.close();
  }
});
