/**
 * The messenger's speed through a real `agent hub run` and the loopback Bot API server
 * (which keeps Telegram's limits), measured from the `getUpdates` answer that carries
 * an update:
 *
 * 1. to the answer's first `sendMessage`, with the fake model answering at once.
 *    Goal: p50 under 30 ms, p99 under 100 ms.
 * 2. to the whole answer visible (the call whose text is the whole answer), with the
 *    fake model streaming a short answer word by word (model time = words × word gap,
 *    under a second), reported as the time past the model's. Goal: model time + 50 ms
 *    (p50).
 *
 * Run: `deno task bench messenger` (or this file directly). `BENCH_SAMPLES` sets the
 * first part's samples (200); the second takes a fifth of them (each waits out
 * Telegram's edit rate of one edit a second).
 *
 * @module
 */
import { percentile } from "./_stats.ts";
import { type BotServer, startBotServer } from "../messenger/_bot_server.ts";
import { messengerHome, OWNER, runHub } from "../messenger/_hub.ts";
import { cleanup } from "../cli/_run.ts";
import { startProvider } from "./_provider.ts";

const SAMPLES = Number(Deno.env.get("BENCH_SAMPLES") ?? "200");
const WARM = 10;
// Two words 200 ms apart: the first is sent, the second completes it by an edit, and
// the model's time is two timers (little drift on a busy machine).
const WORD_MS = 200;
const SHORT = "Sure, done.";
const MODEL_MS = SHORT.split(" ").length * WORD_MS;

/** Runs a hub on a fresh home and gives `body` the bot server. */
async function withHub(
  options: { replies?: string[]; wordMs?: number },
  body: (bot: BotServer) => Promise<void>,
): Promise<void> {
  const bot = startBotServer();
  const { home } = await messengerHome(bot, options);
  const hub = await runHub(home, bot);
  try {
    await body(bot);
  } finally {
    await hub.stop();
    await bot.stop();
  }
}

const firstSend: number[] = [];
const instantWhole: number[] = [];
const pastModel: number[] = [];
const vendorWhole: number[] = [];
const vendorCalls: number[] = [];
const VENDOR_ANSWER = "Okay, here it is: three short words.";
/** First sends that were not the whole answer, by text. */
const other = new Map<string, number>();
try {
  await withHub({}, async (bot) => {
    for (let i = 0; i < SAMPLES + WARM; i++) {
      const sends = bot.callsOf("sendMessage", OWNER).length;
      const id = bot.pushMessage(OWNER, `message ${i}`);
      await bot.until("the answer", () => bot.callsOf("sendMessage", OWNER).length > sends);
      const sent = bot.callsOf("sendMessage", OWNER)[sends]!;
      // The first few warm the hub's code paths and the model router up.
      if (i >= WARM) {
        firstSend.push(sent.at - bot.served.get(id)!);
        // The fake model's "Okay." is the whole answer: was it sent whole?
        if (sent.body.text === "Okay.") instantWhole.push(sent.at - bot.served.get(id)!);
        else other.set(String(sent.body.text), (other.get(String(sent.body.text)) ?? 0) + 1);
      }
      // Let the answer be stored, so each sample starts from a quiet chat (and stays
      // under Telegram's 20 messages a second in a chat, which the server keeps).
      await new Promise((r) => setTimeout(r, 150));
    }
  });
  const shortSamples = Math.max(5, Math.round(SAMPLES / 5));
  const replies = Array.from({ length: shortSamples + WARM }, () => SHORT);
  await withHub({ replies, wordMs: WORD_MS }, async (bot) => {
    for (let i = 0; i < shortSamples + WARM; i++) {
      const before = bot.calls.length;
      const id = bot.pushMessage(OWNER, `short ${i}`);
      const whole = () =>
        bot.calls.slice(before).find((c) =>
          (c.method === "sendMessage" || c.method === "editMessageText") && c.body.text === SHORT
        );
      await bot.until("the whole answer", () => whole() !== undefined, 15_000);
      if (i >= WARM) pastModel.push(whole()!.at - bot.served.get(id)! - MODEL_MS);
      // A quiet chat for the next sample: Telegram's edit rate is one a second.
      await new Promise((r) => setTimeout(r, 1_050));
    }
  });
  // 3. A provider stream: vendor-a's SSE, every text delta at once.
  const provider = await startProvider(VENDOR_ANSWER);
  try {
    const bot = startBotServer();
    const { home } = await messengerHome(bot, {
      env: { VENDOR_A_API_KEY: "sk-bench" },
      toml: [[
        /provider = "fake"\nmodel_id = "fake-brain"\n/,
        `provider = "vendor-a"\nmodel_id = "m-brain"\n`,
      ], [
        /\[models\.roles\.brain\.budget\]/,
        `[models.roles.brain.params]\nbase_url = "${provider.url}/v1"\n\n[models.roles.brain.budget]`,
      ]],
    });
    const hub = await runHub(home, bot);
    try {
      const samples = Math.max(5, Math.round(SAMPLES / 5));
      for (let i = 0; i < samples + WARM; i++) {
        const before = bot.calls.length;
        const id = bot.pushMessage(OWNER, `vendor ${i}`);
        const answerCalls = () =>
          bot.calls.slice(before).filter((c) =>
            (c.method === "sendMessage" || c.method === "editMessageText") &&
            String(c.body.chat_id) === String(OWNER)
          );
        const whole = () => answerCalls().find((c) => c.body.text === VENDOR_ANSWER);
        await bot.until("the whole answer", () => whole() !== undefined, 15_000);
        // Past the chat's edit rate, so an edit still to come would be counted.
        await new Promise((r) => setTimeout(r, 1_100));
        if (i >= WARM) {
          vendorWhole.push(whole()!.at - bot.served.get(id)!);
          vendorCalls.push(answerCalls().length);
        }
      }
    } finally {
      await hub.stop();
      await bot.stop();
    }
  } finally {
    await provider.close();
  }
} finally {
  await cleanup();
}

const fmt = (values: number[], p: number) => percentile(values, p).toFixed(1);
console.log(`samples: ${firstSend.length} (first send), ${pastModel.length} (short answers)`);
console.log(`update_to_first_send_ms: p50 ${fmt(firstSend, 50)}, p99 ${fmt(firstSend, 99)}`);
console.log(`goal: p50 < 30 ms, p99 < 100 ms`);
console.log(
  `instant_answer_sent_whole: ${instantWhole.length} of ${firstSend.length} in one message${
    other.size === 0 ? "" : `; the other first sends: ${JSON.stringify(Object.fromEntries(other))}`
  }`,
);
console.log(
  `short_answer_whole_visible_past_model_ms (model ${MODEL_MS} ms): p50 ${
    fmt(pastModel, 50)
  }, p99 ${fmt(pastModel, 99)}`,
);
console.log(`goal: p50 < 50 ms past the model's time`);
const oneCall = vendorCalls.filter((n) => n === 1).length;
console.log(
  `vendor_stream_answer_calls: ${oneCall} of ${vendorCalls.length} answers in one call (p50 ${
    fmt(vendorCalls, 50)
  } calls); whole visible p50 ${fmt(vendorWhole, 50)} ms, p99 ${fmt(vendorWhole, 99)} ms`,
);
console.log(`goal: every short provider answer in one call`);
if (
  percentile(firstSend, 50) >= 30 || percentile(firstSend, 99) >= 100 ||
  percentile(pastModel, 50) >= 50 || oneCall < vendorCalls.length
) Deno.exitCode = 1;
