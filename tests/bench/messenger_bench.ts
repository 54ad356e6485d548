/**
 * The messenger's reaction time: from an update served by the local Bot API server
 * (the `getUpdates` answer that carries it) to the first `sendMessage` of the answer,
 * with the fake model, through a real `agent hub run`. Goal: p50 under 30 ms, p99
 * under 100 ms.
 *
 * Run: `deno task bench messenger` (or this file directly).
 *
 * @module
 */
import { percentile } from "./_stats.ts";
import { startBotServer } from "../messenger/_bot_server.ts";
import { messengerHome, OWNER, runHub } from "../messenger/_hub.ts";
import { cleanup } from "../cli/_run.ts";

const SAMPLES = Number(Deno.env.get("BENCH_SAMPLES") ?? "200");

const bot = startBotServer();
const { home } = await messengerHome(bot);
const hub = await runHub(home, bot);
const samples: number[] = [];
try {
  for (let i = 0; i < SAMPLES + 10; i++) {
    const sends = bot.callsOf("sendMessage", OWNER).length;
    const id = bot.pushMessage(OWNER, `message ${i}`);
    await bot.until("the answer", () => bot.callsOf("sendMessage", OWNER).length > sends);
    const sent = bot.callsOf("sendMessage", OWNER)[sends]!.at;
    // The first few warm the hub's code paths and the model router up.
    if (i >= 10) samples.push(sent - bot.served.get(id)!);
    // Let the answer's last edit go by, so each sample starts from a quiet chat.
    await new Promise((r) => setTimeout(r, 20));
  }
} finally {
  await hub.stop();
  await bot.stop();
  await cleanup();
}
const p50 = percentile(samples, 50);
const p99 = percentile(samples, 99);
console.log(`samples: ${samples.length}`);
console.log(`update_to_first_send_ms: p50 ${p50.toFixed(1)}, p99 ${p99.toFixed(1)}`);
console.log(`goal: p50 < 30 ms, p99 < 100 ms`);
if (p50 >= 30 || p99 >= 100) Deno.exitCode = 1;
