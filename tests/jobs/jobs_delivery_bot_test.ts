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
import { cleanup, tempHome } from "../cli/_run.ts";
import { startBotServer } from "../messenger/_bot_server.ts";
import { OWNER, seenIn, textsIn } from "../messenger/_hub.ts";
import { until } from "../_poll.ts";

async function setup(bot: ReturnType<typeof startBotServer>) {
  const dir = await tempHome();
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

Deno.test("job delivery to the Bot API: an answer's Markdown arrives formatted, a long one in parts in order, once", async () => {
  const bot = startBotServer();
  const s = await setup(bot);
  try {
    const answer = [
      "Job news ($0.0020):",
      "**Three things** today:",
      "- call *Ayşe*",
      "- pay the `rent`",
      "```ts",
      "if (a < b) send();",
      "```",
    ].join("\n");
    s.answer("news@1", answer);
    await until(
      "the answer",
      () => s.store.deliveries.get("news@1", `chat:${OWNER}`)?.state === "sent",
    );
    const [message] = [...bot.messages.values()].filter((m) => m.chatId === OWNER);
    assert.equal(message?.parseMode, "HTML");
    assert.equal(
      seenIn(bot, OWNER)[0],
      "Job news ($0.0020):\nThree things today:\n• call Ayşe\n• pay the rent\nif (a < b) send();",
    );
    // The entities as the server read them: where a person sees bold, italics and code.
    const seen = seenIn(bot, OWNER)[0]!;
    const marked = message!.entities!.map((e) => ({
      type: e.type,
      text: seen.slice(e.offset, e.offset + e.length),
      ...(e.language === undefined ? {} : { language: e.language }),
    }));
    assert.deepEqual(marked, [
      { type: "bold", text: "Three things" },
      { type: "italic", text: "Ayşe" },
      { type: "code", text: "rent" },
      { type: "pre", text: "if (a < b) send();", language: "ts" },
    ]);

    // A long answer with a fence across parts: in order, each part once, each well formed.
    const lines = Array.from(
      { length: 600 },
      (_, i) => `row ${String(i).padStart(3, "0")} <x> & y`,
    );
    s.answer("news@2", `**Long**\n\n\`\`\`\n${lines.join("\n")}\n\`\`\`\nend`);
    await until(
      "the long answer",
      () => s.store.deliveries.get("news@2", `chat:${OWNER}`)?.state === "sent",
    );
    const parts = [...bot.messages.values()].filter((m) => m.chatId === OWNER)
      .sort((a, b) => a.messageId - b.messageId).slice(1);
    assert.ok(parts.length >= 3, `${parts.length} parts`);
    assert.equal(s.store.deliveries.get("news@2", `chat:${OWNER}`)?.parts_sent, parts.length);
    assert.ok(parts.every((p) => p.parseMode === "HTML"));
    // Every part after the first runs inside the fence: it shows as code.
    for (const p of parts.slice(1)) assert.equal(p.entities?.[0]?.type, "pre");
    const rows = seenIn(bot, OWNER).slice(1).join("\n").split("\n").filter((l) =>
      l.startsWith("row ")
    );
    assert.deepEqual(rows, lines);
    assert.equal(bot.callsOf("sendMessage", OWNER).length, parts.length + 1);
  } finally {
    await s.worker.stop();
    s.store.close();
    await bot.stop();
    await cleanup();
  }
});

Deno.test("job delivery to the Bot API: a part whose HTML is refused goes as the plain text it shows", async () => {
  const bot = startBotServer();
  const s = await setup(bot);
  try {
    bot.refuseEntities = true;
    s.answer("news@1", "Job news ($0.0020):\n**Done** & `ok`");
    await until(
      "the answer",
      () => s.store.deliveries.get("news@1", `chat:${OWNER}`)?.state === "sent",
    );
    assert.deepEqual(textsIn(bot, OWNER), ["Job news ($0.0020):\nDone & ok"]);
  } finally {
    await s.worker.stop();
    s.store.close();
    await bot.stop();
    await cleanup();
  }
});
