/**
 * Context budget benchmark: one chat of 2,000 turns through the desk (as the messenger
 * runs it) against a loopback provider in vendor-a's wire format (in a process of its
 * own, so only the hub side's memory is measured), two ways, one after the other in the
 * same process:
 * - with the context budget (`context_tokens = 32000`, the shipped brain's default);
 * - the baseline, the same chat with a budget no chat reaches (`context_tokens =
 *   10000000`), which is how every turn was sent before: the whole session.
 *
 * Each turn is an owner message of ~300 characters and an answer of ~500, so a turn adds
 * ~210 tokens and the budget fills near turn 150. Printed: the bytes of the request at
 * turns 200, 1,000 and 2,000 (goal: flat within 10% with the budget), the summaries
 * written (fast calls, marked `compaction` in the ledger), and the process's RSS slope
 * over turns 500 to 2,000 (goal under 5 MiB per 1,000 turns).
 *
 * Run: `deno task bench context` (`AGENT_BENCH_TURNS` shortens it). Prints
 * `<metric>: <value>` lines.
 *
 * @module
 */
import { Desk, parseConfig } from "@agent/hub";
import { Logger, resolvePaths } from "@agent/hub/base";
import { Ledger } from "@agent/hub/money";
import { startProvider } from "./_provider.ts";

const TURNS = Number(Deno.env.get("AGENT_BENCH_TURNS") ?? 2000);
const CHECKPOINTS = [200, 1000, 2000].filter((n) => n <= TURNS);
const MIB = 1024 * 1024;
const SAMPLE_FROM = Math.min(500, Math.floor(TURNS / 4));
const SAMPLE_EVERY = Math.max(10, Math.floor(TURNS / 40));
const ANSWER = "Here is what I found about that, in a few sentences. ".repeat(9).trim();

function print(metric: string, value: string): void {
  console.log(`${metric}: ${value}`);
}

interface Run {
  bytesAt: Map<number, number>;
  summaries: number;
  compactionRows: number;
  rssSlope: number;
  heapSlope: number;
  seconds: number;
}

async function run(contextTokens: number): Promise<Run> {
  const server = await startProvider(ANSWER);
  const home = Deno.makeTempDirSync({ prefix: "agent-context-bench-" });
  try {
    const paths = resolvePaths({ home, env: {} });
    Deno.mkdirSync(paths.personaDir, { recursive: true });
    Deno.writeTextFileSync(`${paths.personaDir}/persona.md`, "You are a benchmark agent.\n");
    const config = parseConfig(
      `[models.roles.brain]
provider = "vendor-a"
model_id = "m-brain"
context_tokens = ${contextTokens}
budget = { usd = 1000, period = "month" }
[models.roles.brain.params]
base_url = "${server.url}/v1"
[models.roles.fast]
provider = "vendor-a"
model_id = "m-fast"
budget = { usd = 1000, period = "month" }
[models.roles.fast.params]
base_url = "${server.url}/v1"
[models.prices.m-brain]
input = 3.0
output = 15.0
[models.prices.m-fast]
input = 1.0
output = 5.0
`,
      "agent.toml",
    );
    const env = { VENDOR_A_API_KEY: "sk-bench" };
    const ledger = Ledger.open(paths.ledgerFile);
    const logger = new Logger({ file: paths.logFile, stderr: "off" });
    const desk = new Desk({ config, env, paths, lang: "en", logger, ledger, tools: [] });
    const conversation = await desk.open("messenger:1001");
    const bytesAt = new Map<number, number>();
    const rss: [number, number][] = [];
    const heap: [number, number][] = [];
    const started = performance.now();
    for (let turn = 1; turn <= TURNS; turn++) {
      const before = server.seen.length;
      const outcome = await conversation.submit(
        `Turn ${turn}: ${"what should I keep in mind for the trip next week? ".repeat(6)}`,
      );
      if (outcome.kind !== "answered") throw new Error(`turn ${turn}: ${outcome.kind}`);
      // The request lines may trail the answer by a moment.
      while (!server.seen.slice(before).some((r) => r.model === "m-brain")) {
        await new Promise((r) => setTimeout(r, 1));
      }
      const brain = server.seen.slice(before).findLast((r) => r.model === "m-brain");
      if (CHECKPOINTS.includes(turn)) bytesAt.set(turn, brain!.bytes);
      server.seen.splice(0, server.seen.length);
      if (turn >= SAMPLE_FROM && turn % SAMPLE_EVERY === 0) {
        // After a full collection, so the slope is what stays, not garbage not yet swept.
        (globalThis as { gc?: () => void }).gc?.();
        const memory = Deno.memoryUsage();
        rss.push([turn, memory.rss]);
        heap.push([turn, memory.heapUsed]);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    await desk.close();
    const rows = ledger.breakdown("purpose", { sinceMs: 0 });
    ledger.close();
    const compaction = rows.find((r) => r.purpose === "compaction");
    return {
      bytesAt,
      summaries: compaction?.calls ?? 0,
      compactionRows: compaction?.calls ?? 0,
      rssSlope: slope(rss),
      heapSlope: slope(heap),
      seconds,
    };
  } finally {
    await server.close();
    Deno.removeSync(home, { recursive: true });
  }
}

/** Least-squares slope of RSS over turns, in MiB per 1,000 turns. */
function slope(points: readonly [number, number][]): number {
  if (points.length < 2) return Number.NaN;
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return (num / den) * 1000 / MIB;
}

const kb = (n: number | undefined) => n === undefined ? "-" : `${(n / 1024).toFixed(1)} KB`;

const budgeted = await run(32_000);
const baseline = await run(10_000_000);
print("turns", String(TURNS));
for (const turn of CHECKPOINTS) {
  print(
    `request at turn ${turn} (budget / baseline)`,
    `${kb(budgeted.bytesAt.get(turn))} / ${kb(baseline.bytesAt.get(turn))}`,
  );
}
const sizes = CHECKPOINTS.map((t) => budgeted.bytesAt.get(t)!);
const spread = (Math.max(...sizes) - Math.min(...sizes)) / Math.min(...sizes);
print("request spread over the checkpoints with the budget", `${(spread * 100).toFixed(1)}%`);
const last = CHECKPOINTS[CHECKPOINTS.length - 1]!;
print(
  `ratio budget / baseline at turn ${last}`,
  `${(budgeted.bytesAt.get(last)! / baseline.bytesAt.get(last)!).toFixed(3)}×`,
);
print("summaries written (ledger rows marked compaction)", String(budgeted.compactionRows));
print(
  "RSS slope, turns 500 to end (budget / baseline)",
  `${budgeted.rssSlope.toFixed(2)} / ${baseline.rssSlope.toFixed(2)} MiB per 1,000 turns`,
);
print(
  "JS heap slope after gc(), turns 500 to end (budget / baseline)",
  `${budgeted.heapSlope.toFixed(2)} / ${baseline.heapSlope.toFixed(2)} MiB per 1,000 turns`,
);
print(
  "wall time (budget / baseline)",
  `${budgeted.seconds.toFixed(1)} s / ${baseline.seconds.toFixed(1)} s`,
);
print("goal: flat within 10%", spread <= 0.10 ? "met" : "NOT MET");
print(
  "goal: memory slope under 5 MiB per 1,000 turns (JS heap after gc)",
  budgeted.heapSlope < 5 ? "met" : "NOT MET",
);
