/**
 * The delivery worker against the loopback Bot API, in process (the hub's own sinks,
 * `hub/app/jobs_delivery.ts`): a 429 is waited out for its `retry_after` and the answer
 * arrives once; an answer longer than a message arrives in parts, each once; a chat that
 * refuses for good (403) drops the delivery at once and the owner is told once; the
 * token appears in no error.
 */
import assert from "node:assert/strict";
import { DeliveryWorker, JobStore } from "@agent/hub/jobs";
import { Logger } from "@agent/hub/base";
import { jobDeliverySinks, type NetEvent, type OwnerEvent } from "@agent/hub";
import { cleanup, tempDir } from "../cli/_run.ts";
import { startBotServer } from "../messenger/_bot_server.ts";
import { OWNER, textsIn } from "../messenger/_hub.ts";

async function setup(bot: ReturnType<typeof startBotServer>) {
  const dir = await tempDir();
  const store = JobStore.open(`${dir}/jobs.sqlite3`);
  const published: NetEvent[] = [];
  const { sinks, chats } = jobDeliverySinks({
    config: { messenger: { allowed_chat_ids: [] } } as never,
    env: {
      MESSENGER_BOT_TOKEN: bot.token,
      MESSENGER_API_ROOT: bot.apiRoot,
      MESSENGER_ALLOWED_CHAT_IDS: String(OWNER),
    },
    events: {
      publish(event) {
        published.push(event);
        return Promise.resolve({ ...event, event_id: String(published.length) } as OwnerEvent);
      },
    },
    netDir: dir,
  });
  assert.deepEqual(chats, [String(OWNER)]);
  const worker = new DeliveryWorker({
    store: store.deliveries,
    sinks,
    lang: "en",
    logger: new Logger({ stderr: "off" }),
    alive: () => true,
    now: Date.now,
    retryBaseMs: 50,
  });
  const answer = (slot: string, text: string) => {
    store.claim(slot, "news", 0, Date.now());
    store.finish(slot, { state: "ok", usd: 0.002, nowMs: Date.now() }, {
      job: "news",
      text,
      usd: 0.002,
      deliver: "messenger",
      targets: [`chat:${OWNER}`],
    });
    worker.kick();
  };
  return { store, worker, published, answer };
}

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

Deno.test("job delivery to the Bot API: a 429 is waited out, a long answer arrives in parts, once", async () => {
  const bot = startBotServer();
  const s = await setup(bot);
  try {
    bot.fail("sendMessage", {
      code: 429,
      description: "Too Many Requests: retry after 1",
      retryAfter: 1,
    });
    const at = Date.now();
    s.answer("news@1", "Job news ($0.0020):\nDone.");
    await until("the answer", () => textsIn(bot, OWNER).length === 1);
    assert.ok(Date.now() - at >= 900, "the retry_after was not waited out");
    assert.equal(s.store.deliveries.get("news@1", `chat:${OWNER}`)?.attempts, 1);
    // 9,000 characters: three messages, in order, each once.
    const long = Array.from({ length: 1000 }, (_, i) => `word${String(i).padStart(4, "0")}`)
      .join(" ");
    s.answer("news@2", long);
    await until(
      "the long answer",
      () => s.store.deliveries.get("news@2", `chat:${OWNER}`)?.state === "sent",
    );
    const parts = textsIn(bot, OWNER).slice(1);
    assert.equal(parts.length, 3);
    assert.equal(parts.join(" "), long);
    assert.ok(parts.every((p) => p.length <= 4096));
    assert.equal(s.store.deliveries.get("news@2", `chat:${OWNER}`)?.parts_sent, 3);
  } finally {
    await s.worker.stop();
    s.store.close();
    await bot.stop();
    await cleanup();
  }
});

Deno.test("job delivery to the Bot API: a chat that refuses for good is told once, the token never", async () => {
  const bot = startBotServer();
  const s = await setup(bot);
  try {
    bot.fail("sendMessage", { code: 403, description: "Forbidden: bot was blocked by the user" });
    s.answer("news@1", "Job news ($0.0020):\nDone.");
    await until(
      "the drop",
      () => s.store.deliveries.get("news@1", `chat:${OWNER}`)?.state === "dropped",
    );
    const row = s.store.deliveries.get("news@1", `chat:${OWNER}`)!;
    assert.equal(row.attempts, 0);
    assert.equal(row.last_error, "the Bot API answered 403 Forbidden: bot was blocked by the user");
    await s.worker.once();
    const notices = s.published.filter((e) => e.type === "job.notice");
    assert.equal(notices.length, 1);
    assert.match(
      notices[0]!.text,
      /^The answer of job news \(.+\) could not be delivered to 5551234: the Bot API answered 403 /,
    );
    assert.ok(!JSON.stringify(s.published).includes(bot.token));
    assert.equal(textsIn(bot, OWNER).length, 0);
  } finally {
    await s.worker.stop();
    s.store.close();
    await bot.stop();
    await cleanup();
  }
});
