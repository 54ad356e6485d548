/**
 * Spine benchmark on one local workerd (Miniflare), rate-limit bindings off. Requests go
 * to the Worker's own socket (`unsafeDirectSockets`), not through Miniflare's development
 * proxy, which costs more CPU per request than a small Worker route itself; the figures
 * with the proxy are printed too, for the inbox rate.
 * - accepted envelopes per second from many senders, posted by 32 concurrent clients
 *   (envelopes signed beforehand, sender cards already cached); goal: at least 800/s;
 * - inbox latency p50/p99, one request at a time;
 * - how long a waiting long poll takes to answer after an envelope is stored, measured
 *   as an upper bound: from sending the envelope (which the inbox stores before its 202)
 *   to the poll's answer on the client; goal: p50 under 5 ms.
 *
 * The machine's other work moves the rates a lot, so the bench also prints the CPU time
 * workerd spent per accepted envelope (all its threads, from /proc), a figure that
 * depends far less on how busy the machine is, and the rate one fully used core would
 * sustain at that cost.
 *
 * Run: `deno run -A tests/bench/spine_bench.ts [envelopes]`. Prints `<metric>: <value>`.
 *
 * @module
 */
import { envelopeFor, type Peer, startPeer } from "../spine/_fixtures.ts";
import { startSpine } from "../spine/_harness.ts";
import { workerdCpuMs } from "./_workerd_proc.ts";

const TOTAL = Number(Deno.args[0] ?? 3_000);
const SENDERS = 60;
const CONCURRENCY = 32;
const LATENCY_SAMPLES = 300;
const POLL_SAMPLES = 100;
const TOKEN = "bench-token";
// The Mailbox holds at most 1 000 undelivered envelopes: post in rounds and ack between.
const ROUND = 600;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

function print(metric: string, value: string): void {
  console.log(`${metric}: ${value}`);
}

async function post(url: string, body: string): Promise<number> {
  const r = await fetch(`${url}/net/inbox`, {
    method: "POST",
    // Small JSON answers: skip the compression Miniflare's entry worker would add.
    headers: { "content-type": "application/json", "accept-encoding": "identity" },
    body,
  });
  await r.body?.cancel();
  return r.status;
}

async function drain(url: string): Promise<void> {
  for (;;) {
    const r = await fetch(`${url}/hub/updates?limit=100`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const { updates } = await r.json() as { updates: { seq: number }[] };
    if (updates.length === 0) return;
    await (await fetch(`${url}/hub/ack`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ seqs: updates.map((u) => u.seq) }),
    })).body?.cancel();
  }
}

async function main(): Promise<void> {
  const started = await startSpine({ hubToken: TOKEN, rateLimits: false, direct: true });
  const spine = { ...started, url: started.directUrl! };
  const peers: Peer[] = [];
  try {
    const perSender = Math.ceil(TOTAL / SENDERS);
    if (perSender + 1 > 59) {
      throw new RangeError("Too many envelopes per sender for the hourly limit");
    }
    for (let i = 0; i < SENDERS + 10 + 5; i++) peers.push(await startPeer(`Bench ${i}`));
    const senders = peers.slice(0, SENDERS);

    // Warm the card cache: one envelope per sender.
    for (const peer of senders) {
      await post(spine.url, JSON.stringify(await envelopeFor(peer, spine.address)));
    }
    await drain(spine.url);

    const bodies: string[] = [];
    for (let i = 0; i < TOTAL; i++) {
      bodies.push(JSON.stringify(await envelopeFor(senders[i % SENDERS]!, spine.address)));
    }
    // One round: post `list` with CONCURRENCY clients, then ack everything.
    const round = async (url: string, list: string[]) => {
      let accepted = 0;
      let next = 0;
      const cpu0 = workerdCpuMs();
      const t0 = performance.now();
      await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
        while (next < list.length) {
          const status = await post(url, list[next++]!);
          if (status === 202) accepted++;
        }
      }));
      const perSecond = accepted / ((performance.now() - t0) / 1000);
      const cpuMs = workerdCpuMs() - cpu0;
      await drain(spine.url);
      return { accepted, perSecond, cpuMs };
    };
    // The first round goes through Miniflare's proxy and also warms the Worker up; the
    // rest go to the Worker's own socket. The goal figure is their median.
    const rounds: { accepted: number; perSecond: number; cpuMs: number }[] = [];
    for (let start = 0; start < bodies.length; start += ROUND) {
      rounds.push(
        await round(start === 0 ? started.url : spine.url, bodies.slice(start, start + ROUND)),
      );
    }
    const direct = rounds.slice(1).map((r) => r.perSecond).sort((a, b) => a - b);
    print(
      "spine_inbox_envelopes",
      `${TOTAL} from ${SENDERS} senders, ${CONCURRENCY} concurrent clients, rounds of ${ROUND}`,
    );
    print("spine_inbox_accepted", `${rounds.reduce((n, r) => n + r.accepted, 0)} of ${TOTAL}`);
    print(
      "spine_inbox_accepted_per_second",
      `${percentile(direct, 0.5).toFixed(0)} (median of ${direct.length} rounds, best ${
        direct.at(-1)!.toFixed(0)
      }; goal >= 800)`,
    );
    print("spine_inbox_accepted_per_second_via_miniflare_proxy", rounds[0]!.perSecond.toFixed(0));
    const directRounds = rounds.slice(1);
    const cpuPerEnvelope = directRounds.reduce((n, r) => n + r.cpuMs, 0) /
      directRounds.reduce((n, r) => n + r.accepted, 0);
    if (cpuPerEnvelope > 0) {
      print("spine_inbox_workerd_cpu_ms_per_envelope", cpuPerEnvelope.toFixed(3));
      print("spine_inbox_accepted_per_workerd_cpu_second", (1000 / cpuPerEnvelope).toFixed(0));
    }
    // Other work on the machine moves these figures a lot; say how busy it was.
    print("machine_load_average_1m", Deno.loadavg()[0]!.toFixed(2));

    // Latency, one request at a time.
    const latencySenders = peers.slice(SENDERS, SENDERS + 10);
    for (const peer of latencySenders) {
      await post(spine.url, JSON.stringify(await envelopeFor(peer, spine.address)));
    }
    const samples: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const body = JSON.stringify(await envelopeFor(latencySenders[i % 10]!, spine.address));
      const t0 = performance.now();
      const status = await post(spine.url, body);
      samples.push(performance.now() - t0);
      if (status !== 202) throw new Error(`Inbox answered ${status}`);
    }
    await drain(spine.url);
    samples.sort((a, b) => a - b);
    print("spine_inbox_latency_p50_ms", percentile(samples, 0.5).toFixed(2));
    print("spine_inbox_latency_p99_ms", percentile(samples, 0.99).toFixed(2));

    // Long-poll wake-up.
    const pollSenders = peers.slice(SENDERS + 10);
    for (const peer of pollSenders) {
      await post(spine.url, JSON.stringify(await envelopeFor(peer, spine.address)));
    }
    await drain(spine.url);
    const waits: number[] = [];
    let after = 0;
    {
      const r = await fetch(`${spine.url}/hub/updates?after=0&timeout=0`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      await r.body?.cancel();
    }
    for (let i = 0; i < POLL_SAMPLES; i++) {
      const body = JSON.stringify(
        await envelopeFor(pollSenders[i % pollSenders.length]!, spine.address),
      );
      let answeredAt = 0;
      let sentAt = 0;
      const poll = fetch(`${spine.url}/hub/updates?after=${after}&timeout=10`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      }).then(async (r) => {
        const json = await r.json() as { updates: { seq: number }[] };
        answeredAt = performance.now();
        return json;
      });
      // Let the poll reach the Mailbox and start waiting.
      await new Promise((r) => setTimeout(r, 20));
      sentAt = performance.now();
      const status = await post(spine.url, body);
      const { updates } = await poll;
      if (status !== 202 || updates.length !== 1) {
        throw new Error("The long poll missed an envelope");
      }
      after = updates[0]!.seq;
      // The store happens somewhere between sending the envelope and its 202, so the
      // time from sending to the poll's answer is an upper bound of the wake-up time.
      waits.push(answeredAt - sentAt);
      if (i % 20 === 19) await drain(spine.url);
    }
    waits.sort((a, b) => a - b);
    print(
      "spine_longpoll_answer_after_store_p50_ms",
      `${percentile(waits, 0.5).toFixed(2)} (upper bound, from sending the envelope; goal < 5)`,
    );
    print("spine_longpoll_answer_after_store_p99_ms", percentile(waits, 0.99).toFixed(2));
  } finally {
    await Promise.all(peers.map((p) => p.stop()));
    await spine.stop();
  }
}

await main();
