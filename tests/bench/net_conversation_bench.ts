/**
 * Conversations between agents, as their owners meet them:
 *
 * 1. Envelopes per owner's send between two default agents (each with its own spine on
 *    workerd): with the fake model (answers "Okay.", goal at most 2), with a model that
 *    always answers and always asks back (goal at most 4), and, for comparison, the old
 *    behaviour (`answer_replies = "always"`, up to `max_hops`).
 * 2. Digest batching: 100 network conversations in one hour, at random times, through
 *    the real digest on a virtual clock (its file on disk): messages to the owner and
 *    the shortest gap between two (goal: at most 1 message per 10 minutes).
 *
 * Run: `deno task bench net_conversation`.
 *
 * @module
 */
import { NetDigest, type NetEvent, type OwnerEvent } from "@agent/hub";
import { startAgent, type StartAgentOptions, type TestAgent } from "../hub/_agents.ts";
import { until } from "../_poll.ts";

const SENDS = Number(Deno.env.get("BENCH_SENDS") ?? 5);

async function connect(a: TestAgent, b: TestAgent): Promise<void> {
  await a.node.add(b.address, "bench");
  await until(
    "request",
    async () => (await b.node.state.contact(a.address))?.state === "pending_in",
  );
  await b.node.accept(a.address);
  await until("accept", async () => (await a.node.state.contact(b.address))?.state === "accepted");
}

/** Message envelopes both sent so far. */
async function sent(a: TestAgent, b: TestAgent): Promise<number> {
  const logs = [...await a.node.state.log(), ...await b.node.state.log()];
  return logs.filter((e) => e.kind === "message" && e.direction === "out").length;
}

/** Waits until no envelope moved for `quietMs`; returns the count then. */
async function settled(a: TestAgent, b: TestAgent, quietMs = 800): Promise<number> {
  let last = -1;
  for (;;) {
    const now = await sent(a, b);
    if (now === last) return now;
    last = now;
    await new Promise((r) => setTimeout(r, quietMs));
  }
}

/** Envelopes per send, over {@linkcode SENDS} sends. */
async function envelopesPerSend(
  alice: StartAgentOptions,
  bob: StartAgentOptions,
): Promise<{ max: number; mean: number }> {
  const a = await startAgent("alice", alice);
  const b = await startAgent("bob", bob);
  try {
    await connect(a, b);
    const counts: number[] = [];
    for (let i = 0; i < SENDS; i++) {
      const before = await settled(a, b);
      await a.node.send(b.address, `Do you like tea? (${i})`);
      counts.push(await settled(a, b) - before);
    }
    return { max: Math.max(...counts), mean: counts.reduce((x, y) => x + y, 0) / counts.length };
  } finally {
    await a.close();
    await b.close();
  }
}

function line(what: string, r: { max: number; mean: number }, goal?: number): void {
  const verdict = goal === undefined
    ? ""
    : r.max <= goal
    ? `  (goal <= ${goal}: met)`
    : `  (goal <= ${goal}: MISSED)`;
  console.log(`${what.padEnd(46)} max ${r.max}, mean ${r.mean.toFixed(1)}${verdict}`);
}

const asking = (who: string) => Array(40).fill(`${who} here. And you?`);
const fake = await envelopesPerSend({}, {});
line("envelopes per send, fake model", fake, 2);
const chatty = await envelopesPerSend(
  { replies: asking("Alice") },
  { replies: asking("Bob") },
);
line("envelopes per send, always answers and asks", chatty, 4);
const always = { net: { answer_replies: "always" as const } };
const old = await envelopesPerSend(
  { replies: asking("Alice"), ...always },
  { replies: asking("Bob"), ...always },
);
line('  before: answer_replies = "always"', old);

// Digest batching on a virtual clock: 100 conversations at random times in one hour.
const dir = await Deno.makeTempDir({ prefix: "agent-bench-digest-" });
try {
  let now = Date.UTC(2026, 0, 1);
  const start = now;
  const told: number[] = [];
  const digest = new NetDigest({
    mode: "batched",
    file: `${dir}/digest.json`,
    now: () => now,
    events: {
      publish(event: NetEvent) {
        told.push(now);
        return Promise.resolve({ ...event, event_id: String(told.length) } as OwnerEvent);
      },
    },
  });
  const times = Array.from({ length: 100 }, () => start + Math.random() * 3_600_000)
    .sort((x, y) => x - y);
  const t0 = performance.now();
  let next = 0;
  // Every virtual second: record what arrived, tell what is due (as the timer would).
  for (let t = start; t <= start + 3_600_000; t += 1_000) {
    now = t;
    while (next < times.length && times[next]! <= t) {
      await digest.record({
        address: `peer${next % 9}.example`,
        name: `Peer ${next % 9}`,
        thread: `thread-${next}`,
        asked: "Do you like tea?",
        answered: "Okay.",
      });
      next++;
    }
    await digest.flushDue();
  }
  const ms = performance.now() - t0;
  const gaps = told.slice(1).map((t, i) => t - told[i]!);
  const minGap = gaps.length === 0 ? Infinity : Math.min(...gaps);
  const inAnyTen = Math.max(
    ...told.map((t) => told.filter((u) => u >= t && u < t + 600_000).length),
  );
  console.log(
    `digest, 100 conversations in an hour          ${told.length} messages (without batching: 100), ` +
      `at most ${inAnyTen} in any 10 minutes, shortest gap ${(minGap / 60_000).toFixed(1)} min  ` +
      `(goal <= 1 per 10 min: ${inAnyTen <= 1 ? "met" : "MISSED"}); ${
        (ms / 100).toFixed(2)
      } ms of digest work per conversation`,
  );
} finally {
  await Deno.remove(dir, { recursive: true });
}
