/**
 * `agent spend --by day` over a ledger of 1,000,000 calls, against `agent version`
 * start-up in the same run. Goal: a ratio under 3 (the daily totals make it so: the
 * series never reads the calls).
 *
 * Run: `deno task bench spend_by` (or this file directly).
 *
 * @module
 */
import { median } from "./_stats.ts";
import { AGENT_FLAGS } from "../_agent_flags.ts";
import { type CallRecord, Ledger } from "@agent/hub/money";
import { CONFIG_TEMPLATE } from "@agent/hub";

const ROOT = new URL("../../", import.meta.url).pathname;
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? "11");
const ROWS = 1_000_000;
const CHANNELS = ["chat", "messenger", "net", "cli"] as const;

async function timeRun(args: string[]): Promise<number> {
  const start = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...AGENT_FLAGS, "cli/main.ts", ...args],
    cwd: ROOT,
    stdout: "null",
    stderr: "piped",
  }).output();
  const ms = performance.now() - start;
  if (!out.success) {
    throw new Error(`Benchmark run failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return ms;
}

const dir = await Deno.makeTempDir({ prefix: "agent-bench-spend-" });
const home = `${dir}/home`;
try {
  await Deno.mkdir(`${home}/data`, { recursive: true });
  await Deno.writeTextFile(`${home}/agent.toml`, CONFIG_TEMPLATE);
  // A million calls spread over the last 30 days (all but the oldest in this month or
  // the last), written in batches.
  const seeding = performance.now();
  {
    using ledger = Ledger.open(`${home}/data/spend.sqlite3`);
    const now = Date.now();
    const span = 30 * 86_400_000;
    const batch: CallRecord[] = [];
    for (let i = 0; i < ROWS; i++) {
      batch.push({
        ts: now - span + Math.floor((i / ROWS) * span),
        role: i % 3 === 0 ? "fast" : "brain",
        provider: "vendor-a",
        model_id: "claude-sonnet-5",
        input_tokens: 1000,
        output_tokens: 200,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        usd: 0.00001,
        channel: CHANNELS[i % CHANNELS.length]!,
        session_id: `s${i % 500}`,
        peer: i % 4 === 2 ? `peer${i % 20}.example` : null,
      });
      if (batch.length === 50_000) ledger.recordMany(batch.splice(0));
    }
    if (batch.length > 0) ledger.recordMany(batch);
  }
  console.log(
    `ledger_rows: ${ROWS} (seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s)`,
  );
  await timeRun(["--home", home, "version"]);
  await timeRun(["--home", home, "spend", "--by", "day"]);
  const versionMs: number[] = [];
  const spendMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    versionMs.push(await timeRun(["--home", home, "version"]));
    spendMs.push(await timeRun(["--home", home, "spend", "--by", "day"]));
  }
  const v = median(versionMs);
  const s = median(spendMs);
  console.log(`runs: ${RUNS}`);
  console.log(`agent_version_ms: ${v.toFixed(1)}`);
  console.log(`agent_spend_by_day_ms: ${s.toFixed(1)}`);
  console.log(`ratio: ${(s / v).toFixed(2)}`);
  console.log(`goal: ratio < 3`);
  if (s / v >= 3) Deno.exitCode = 1;
} finally {
  await Deno.remove(dir, { recursive: true });
}
