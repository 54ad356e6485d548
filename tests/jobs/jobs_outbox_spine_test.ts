/**
 * The cloud brain's answers and job log on the spine, on workerd
 * (`/hub/jobs/deliveries`, `/hub/jobs/log`, `hub/jobs/spine_outbox.ts`): a write is
 * idempotent by slot, target and part (a late or repeated write never takes a mark
 * back, a sent row stays sent); a long answer whose second part was refused, its
 * container gone, is finished by a brain with an empty store from the part after the
 * last one marked on the spine, so no part arrives twice; a log entry written by one
 * container is read by the next, and summed per job for `agent jobs list --cloud`; bad
 * input gets 400.
 */
import assert from "node:assert/strict";
import { DeliveryError, DeliveryWorker, JobStore, SpineOutbox } from "@agent/hub/jobs";
import { Logger } from "@agent/hub/base";
import { cleanup, tempHome } from "../cli/_run.ts";
import { CLOUD_TOKEN, cloudSpine } from "../cloud/_cloud.ts";
import { hub } from "../spine/_fixtures.ts";

const post = (url: string, path: string, body: unknown) =>
  hub(url, CLOUD_TOKEN, path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const NOW = Date.now();

const row = (extra: Record<string, unknown> = {}) => ({
  slot_id: "news@1",
  target: "chat:42",
  job: "news",
  text: "Job news ($0.0020):\nDone.",
  usd: 0.002,
  deliver: "messenger",
  created_ms: NOW,
  state: "pending",
  parts_sent: 0,
  attempts: 0,
  next_ms: NOW,
  last_error: null,
  done_ms: null,
  ...extra,
});

Deno.test("spine job outbox: writes are idempotent by slot, target and part; bad input is 400", async () => {
  const { spine } = await cloudSpine();
  try {
    const write = (r: Record<string, unknown>) =>
      post(spine.url, "/hub/jobs/deliveries", { rows: [r] });
    assert.deepEqual((await write(row())).body, { stored: 1 });
    assert.equal(
      (await write(row({ parts_sent: 2, attempts: 1, next_ms: NOW + 9_000 }))).status,
      200,
    );
    // A late write of an older state takes no mark back.
    await write(row({ parts_sent: 1 }));
    let pending = (await hub(spine.url, CLOUD_TOKEN, "/hub/jobs/deliveries")).body
      .deliveries as Record<string, unknown>[];
    assert.equal(pending.length, 1);
    assert.equal(pending[0]!.parts_sent, 2);
    assert.equal(pending[0]!.attempts, 1);
    await write(row({ parts_sent: 3, state: "sent", done_ms: NOW }));
    // A sent row stays sent, whatever arrives after.
    await write(row({ parts_sent: 2 }));
    pending = (await hub(spine.url, CLOUD_TOKEN, "/hub/jobs/deliveries")).body
      .deliveries as Record<string, unknown>[];
    assert.deepEqual(pending, []);

    for (
      const [body, detail] of [
        [{ rows: [row({ state: "gone" })] }, "'state' must be pending, sent or dropped"],
        [{ rows: [row({ target: "mail:1" })] }, "'target' must be events or chat:ID"],
        [{ rows: [row({ parts_sent: -1 })] }, "'parts_sent' must be a whole number of 0 or more"],
        [{ rows: "no" }, "'rows' must be a list of at most 500 rows"],
      ] as const
    ) {
      const r = await post(spine.url, "/hub/jobs/deliveries", body);
      assert.equal(r.status, 400);
      assert.equal((r.body as { detail?: string }).detail, detail);
    }
    const log = {
      slot_id: "news@1",
      job: "news",
      slot_ms: NOW,
      claimed_ms: NOW,
      state: "ok",
      missed: false,
      usd: 0.002,
      finished_ms: NOW + 2_000,
      detail: "Done.",
      session_id: "s1",
    };
    await post(spine.url, "/hub/jobs/log", { rows: [log] });
    // A running entry never replaces a finished one.
    await post(spine.url, "/hub/jobs/log", { rows: [{ ...log, state: "running" }] });
    const runs = (await hub(spine.url, CLOUD_TOKEN, "/hub/jobs/log?job=news")).body.runs;
    assert.deepEqual(runs, [{ ...log, missed: 0 }]);
    const bad = await post(spine.url, "/hub/jobs/log", { rows: [{ ...log, usd: "x" }] });
    assert.equal(bad.status, 400);
    // `agent jobs list --cloud`: each job's newest outcome, its spend today and in the period.
    await post(spine.url, "/hub/jobs/log", {
      rows: [{
        ...log,
        slot_id: "news@0",
        slot_ms: NOW - 86_400_000,
        claimed_ms: NOW - 86_400_000,
        state: "failed",
        usd: 0.001,
      }],
    });
    const summary = await hub(
      spine.url,
      CLOUD_TOKEN,
      `/hub/jobs/summary?day=${NOW - 1_000}&since=0`,
    );
    assert.deepEqual(summary.body.jobs, [
      { job: "news", last_state: "ok", last_ms: NOW, today_usd: 0.002, period_usd: 0.003 },
    ]);
    assert.equal(
      (await hub(spine.url, CLOUD_TOKEN, "/hub/jobs/summary?day=x&since=0")).status,
      400,
    );
  } finally {
    await spine.stop();
  }
});

Deno.test("spine job outbox: a long answer cut at its second part is finished by a new container, no part twice", async () => {
  const { spine } = await cloudSpine();
  const dirs = [await tempHome(), await tempHome()];
  const stores = dirs.map((d) => JobStore.open(`${d}/jobs.sqlite3`));
  const outboxes = [0, 1].map(() => new SpineOutbox({ url: spine.url, token: CLOUD_TOKEN }));
  const got: string[] = [];
  const worker = (i: number, refuse: (part: string) => boolean) =>
    new DeliveryWorker({
      store: stores[i]!.deliveries,
      sinks: {
        chat: {
          parts: (text) => text.split("|"),
          send(_chat, part) {
            if (refuse(part)) return Promise.reject(new DeliveryError("the Bot API answered 502"));
            got.push(part);
            return Promise.resolve();
          },
        },
      },
      lang: "en",
      logger: new Logger({ stderr: "off" }),
      alive: () => true,
      now: Date.now,
      changed: (r) => outboxes[i]!.delivery(r),
    });
  const workers: DeliveryWorker[] = [];
  try {
    const [a, b] = stores as [JobStore, JobStore];
    a.onLogged = (slot) => {
      outboxes[0]!.run(a.row(slot)!);
      for (const d of a.deliveries.of(slot)) void outboxes[0]!.delivery(d);
    };
    a.claim("news@1", "news", NOW, NOW);
    a.finish("news@1", { state: "ok", usd: 0.002, nowMs: Date.now(), detail: "one" }, {
      job: "news",
      text: "one|two|three",
      usd: 0.002,
      deliver: "messenger",
      targets: ["chat:42"],
    });
    workers.push(worker(0, (part) => part === "two"));
    await workers[0]!.once();
    assert.deepEqual(got, ["one"]);
    await outboxes[0]!.close();
    // The first container is gone; the second starts with an empty store.
    const read = await outboxes[1]!.pull(b, Date.now());
    assert.deepEqual(read, { deliveries: 1, runs: 1 });
    assert.equal(b.deliveries.get("news@1", "chat:42")?.parts_sent, 1);
    assert.deepEqual(b.log("news").map((r) => [r.slot_id, r.state, r.detail]), [
      ["news@1", "ok", "one"],
    ]);
    workers.push(worker(1, () => false));
    await workers[1]!.once();
    assert.deepEqual(got, ["one", "two", "three"]);
    await outboxes[1]!.close();
    const left = (await hub(spine.url, CLOUD_TOKEN, "/hub/jobs/deliveries")).body.deliveries;
    assert.deepEqual(left, []);
  } finally {
    for (const w of workers) await w.stop();
    for (const o of outboxes) await o.close(0);
    for (const s of stores) s.close();
    await spine.stop();
    await cleanup();
  }
});
