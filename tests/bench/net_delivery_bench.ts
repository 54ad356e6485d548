/**
 * Network delivery latency on loopback: from `agent net send` on one hub (seal, sign,
 * POST to the peer's spine) to the moment the peer hub has handled the envelope
 * (fetched, re-verified, opened, stored), over the doorbell (`link = websocket`) and
 * over the long poll (`link = poll`). Every agent has its own spine on workerd
 * (Miniflare); auto-replies are off so no model runs. The spine keeps at most 60
 * arrivals per sender and hour, so several senders take turns.
 *
 * Goal: doorbell p50 < 15 ms, p99 < 50 ms.
 *
 * Run: `deno run -A tests/bench/net_delivery_bench.ts [messages-per-sender]`.
 *
 * @module
 */
import { startSpine } from "../spine/_harness.ts";
import { startAgent, type TestAgent } from "../hub/_agents.ts";
import { until } from "../_poll.ts";

const PER_SENDER = Math.min(55, Number(Deno.args[0] ?? 50));
// With 94 samples a "p99" is just the maximum, which one GC pause decides; eight
// senders give about 376 samples, enough for a p99 that means something.
const SENDERS = Number(Deno.env.get("BENCH_SENDERS") ?? 8);
const WARMUP = 3;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

async function measure(receiver: TestAgent, senders: TestAgent[]): Promise<number[]> {
  const samples: number[] = [];
  for (const sender of senders) {
    for (let i = 0; i < PER_SENDER; i++) {
      const before = receiver.handled.length;
      const t0 = performance.now();
      // Resolves in the receiver's onHandled callback, right after handling.
      const handled = receiver.waitHandled(before + 1, 30_000).then(() => performance.now());
      await sender.node.send(receiver.address, `message ${i}`);
      const t1 = await handled;
      if (i >= WARMUP) samples.push(t1 - t0);
    }
  }
  return samples.sort((a, b) => a - b);
}

async function connect(a: TestAgent, b: TestAgent): Promise<void> {
  await a.node.add(b.address, "bench");
  await until(
    "request",
    async () => (await b.node.state.contact(a.address))?.state === "pending_in",
  );
  await b.node.accept(a.address);
  await until("accept", async () => (await a.node.state.contact(b.address))?.state === "accepted");
}

async function run(link: "websocket" | "poll"): Promise<number[]> {
  const token = `bench-${link}`;
  const spine = await startSpine({ hubToken: token, rateLimits: false, direct: true });
  const receiver = await startAgent(`bob-${link}`, {
    spine,
    // The hub talks to its spine on the Worker's own socket: in production there is no
    // development proxy between them (peers still post through Miniflare's proxy).
    env: { AGENT_SPINE_TOKEN: token, AGENT_SPINE_URL: spine.directUrl ?? spine.url },
    link,
    net: { auto_reply: false },
  });
  const senders: TestAgent[] = [];
  for (let i = 0; i < SENDERS; i++) {
    const s = await startAgent(`alice${i}-${link}`, { link: "poll", noService: false });
    await connect(s, receiver);
    senders.push(s);
  }
  try {
    // Let the doorbell (or the first long poll) settle before measuring.
    await new Promise((r) => setTimeout(r, 300));
    return await measure(receiver, senders);
  } finally {
    for (const s of senders) await s.close();
    await receiver.close();
    await spine.stop();
  }
}

const doorbell = await run("websocket");
const poll = await run("poll");
for (const [name, samples] of [["doorbell", doorbell], ["long_poll", poll]] as const) {
  console.log(`${name}_samples: ${samples.length}`);
  console.log(`${name}_p50_ms: ${percentile(samples, 0.5).toFixed(1)}`);
  console.log(`${name}_p99_ms: ${percentile(samples, 0.99).toFixed(1)}`);
  console.log(`${name}_max_ms: ${samples.at(-1)?.toFixed(1)}`);
}
console.log("goal: doorbell p50 < 15 ms, p99 < 50 ms");
const ok = percentile(doorbell, 0.5) < 15 && percentile(doorbell, 0.99) < 50;
console.log(`goal_met: ${ok ? "yes" : "no"}`);
Deno.exit(0);
