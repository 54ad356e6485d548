/**
 * The messenger soak of issue 26: one owner chat talking to a real `agent hub run`
 * through the loopback Bot API server (Telegram's limits kept) for 30 minutes, a message
 * every 3 seconds (600 turns), against a vendor-a-format provider in a process of its
 * own. Two hubs run side by side in the same minutes, each with its own bot server and
 * provider:
 * - the shipped brain's context budget (`context_tokens = 32000`);
 * - the baseline, a budget no chat reaches (`context_tokens = 10000000`): every turn
 *   sends the whole session, as before the context budget.
 *
 * Each owner message is ~300 characters and each answer ~500, as in `context_bench.ts`.
 * Printed: the request bytes at turn 200 and at the last turn, and each hub's RSS (read
 * from `/proc/<pid>/status`, so the hub process as a person's `top` shows it) at the
 * start and the end, with its least-squares slope over turns 100 to the end. Goal: slope
 * under 5 MiB per 1,000 turns with the budget.
 *
 * Run: `deno task bench soak`; `SOAK_MINUTES` and `SOAK_INTERVAL_MS` shorten it.
 *
 * @module
 */
import { startBotServer } from "../messenger/_bot_server.ts";
import { messengerHome, OWNER, runHub, seenIn } from "../messenger/_hub.ts";
import { cleanup } from "../cli/_run.ts";
import { startProvider } from "./_provider.ts";

const MINUTES = Number(Deno.env.get("SOAK_MINUTES") ?? 30);
const INTERVAL_MS = Number(Deno.env.get("SOAK_INTERVAL_MS") ?? 3000);
const TURNS = Math.max(20, Math.round(MINUTES * 60_000 / INTERVAL_MS));
const SLOPE_FROM = Math.min(100, Math.floor(TURNS / 4));
const SAMPLE_EVERY = 10;
const MIB = 1024 * 1024;
const END = "and that is all for now.";
const ANSWER = `${"Here is what I found about that, in a few sentences. ".repeat(8)}${END}`;

/** One hub under soak: its bot server, provider, process and samples. */
async function startSide(contextTokens: number) {
  const bot = startBotServer();
  const provider = await startProvider(ANSWER);
  const { home } = await messengerHome(bot, {
    env: { VENDOR_A_API_KEY: "sk-bench" },
    toml: [
      [
        /provider = "fake"\nmodel_id = "fake-brain"\nmax_tokens = 4096\ncontext_tokens = 32000/,
        `provider = "vendor-a"\nmodel_id = "m-brain"\nmax_tokens = 4096\n` +
        `context_tokens = ${contextTokens}\n\n[models.roles.brain.params]\n` +
        `base_url = "${provider.url}/v1"`,
      ],
      [
        /provider = "fake"\nmodel_id = "fake-fast"\nmax_tokens = 1024\ncontext_tokens = 16000/,
        `provider = "vendor-a"\nmodel_id = "m-fast"\nmax_tokens = 1024\n` +
        `context_tokens = 16000\n\n[models.roles.fast.params]\nbase_url = "${provider.url}/v1"`,
      ],
      [/usd = 15\n/, "usd = 100000\n"],
      [/usd = 1\n/, "usd = 100000\n"],
      [
        /\[sessions\]/,
        `[models.prices.m-brain]\ninput = 3.0\noutput = 15.0\n\n` +
        `[models.prices.m-fast]\ninput = 1.0\noutput = 5.0\n\n[sessions]`,
      ],
    ],
  });
  const hub = await runHub(home, bot);
  const rss: [number, number][] = [];
  const anon: [number, number][] = [];
  const bytesAt = new Map<number, number>();
  let lastBrainBytes = 0;
  return {
    bot,
    provider,
    hub,
    rss,
    anon,
    bytesAt,
    answered: () => seenIn(bot, OWNER).filter((t) => t.includes(END)).length,
    async turn(n: number): Promise<void> {
      const before = this.answered();
      bot.pushMessage(
        OWNER,
        `Turn ${n}: ${"what should I keep in mind for the trip next week? ".repeat(6)}`,
      );
      await bot.until(`the answer to turn ${n}`, () => this.answered() > before, 120_000);
      const brain = provider.seen.findLast((r) => r.model === "m-brain");
      if (brain) lastBrainBytes = brain.bytes;
      provider.seen.splice(0, provider.seen.length);
      if (n === 200 || n === TURNS) bytesAt.set(n, lastBrainBytes);
      if (n === 1 || n % SAMPLE_EVERY === 0) {
        rss.push([n, await rssOf(hub.child.pid)]);
        anon.push([n, await rssOf(hub.child.pid, "RssAnon")]);
      }
    },
    async stop(): Promise<string> {
      const { stderr } = await hub.stop();
      await bot.stop();
      await provider.close();
      return stderr;
    },
  };
}

/**
 * The process's resident set in bytes, from `/proc`: all of it (`VmRSS`, what `top`
 * shows), or its anonymous part (`RssAnon`: the hub's own memory, without the pages of
 * the Deno executable it has run so far).
 */
async function rssOf(pid: number, field: "VmRSS" | "RssAnon" = "VmRSS"): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kb = Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(status)?.[1]);
  return kb * 1024;
}

/** Least-squares slope of the points from turn `from`, in MiB per 1,000 turns. */
function slope(points: readonly [number, number][], from: number): number {
  const used = points.filter(([x]) => x >= from);
  const n = used.length;
  if (n < 2) return Number.NaN;
  const mx = used.reduce((s, [x]) => s + x, 0) / n;
  const my = used.reduce((s, [, y]) => s + y, 0) / n;
  const num = used.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = used.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return (num / den) * 1000 / MIB;
}

const mib = (bytes: number | undefined) =>
  bytes === undefined ? "-" : `${(bytes / MIB).toFixed(1)} MiB`;
const kb = (bytes: number | undefined) =>
  bytes === undefined ? "-" : `${(bytes / 1024).toFixed(1)} KB`;

const budget = await startSide(32_000);
const baseline = await startSide(10_000_000);
const started = performance.now();
try {
  for (let n = 1; n <= TURNS; n++) {
    const due = started + (n - 1) * INTERVAL_MS;
    await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
    await Promise.all([budget.turn(n), baseline.turn(n)]);
  }
} finally {
  await budget.stop();
  await baseline.stop();
  await cleanup();
}
const minutes = (performance.now() - started) / 60_000;

console.log(`soak: ${TURNS} turns in ${minutes.toFixed(1)} min, one every ${INTERVAL_MS} ms`);
for (const n of [...budget.bytesAt.keys()]) {
  console.log(
    `request at turn ${n} (budget / baseline): ${kb(budget.bytesAt.get(n))} / ${
      kb(baseline.bytesAt.get(n))
    }`,
  );
}
for (const [name, side] of [["budget", budget], ["baseline", baseline]] as const) {
  console.log(
    `hub RSS ${name}: ${mib(side.rss[0]?.[1])} at turn 1, ${
      mib(side.rss.find(([x]) => x >= SLOPE_FROM)?.[1])
    } at turn ${SLOPE_FROM}, ${mib(side.rss.at(-1)?.[1])} at the end, peak ${
      mib(Math.max(...side.rss.map(([, y]) => y)))
    }`,
  );
}
const budgetSlope = slope(budget.rss, SLOPE_FROM);
const baselineSlope = slope(baseline.rss, SLOPE_FROM);
console.log(
  `hub RSS slope, turns ${SLOPE_FROM} to ${TURNS} (budget / baseline): ${
    budgetSlope.toFixed(2)
  } / ${baselineSlope.toFixed(2)} MiB per 1,000 turns (ratio ${
    (budgetSlope / baselineSlope).toFixed(2)
  })`,
);
console.log(
  `anonymous part's slope, turns ${SLOPE_FROM} to ${TURNS} (budget / baseline): ${
    slope(budget.anon, SLOPE_FROM).toFixed(2)
  } / ${slope(baseline.anon, SLOPE_FROM).toFixed(2)} MiB per 1,000 turns`,
);
console.log(`goal: slope under 5 MiB per 1,000 turns: ${budgetSlope < 5 ? "met" : "NOT MET"}`);
