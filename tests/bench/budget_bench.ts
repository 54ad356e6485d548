/**
 * Budget benchmark, with a spend ledger of 1,000,000 calls:
 * - the budget check before a call (`budgetStatus`), in process; goal: p99 under 1 ms;
 * - the same check with a hard cap (`checkBudget` reserving the call's most possible
 *   cost in a `BEGIN IMMEDIATE` transaction, as the call chain does); goal: p99 under 1 ms;
 * - `agent spend` start-up as a subprocess against `agent version`'s; goal: under 3x.
 *
 * Run: `deno run -A tests/bench/budget_bench.ts [rows]`. Prints `<metric>: <value>` lines.
 *
 * @module
 */
import { CONFIG_TEMPLATE } from "@agent/hub";
import {
  type BudgetStatus,
  budgetStatus,
  type CallRecord,
  type Channel,
  checkBudget,
  Ledger,
} from "@agent/hub/money";
import type { AgentConfig, RoleConfig } from "@agent/hub/config";

const ROWS = Number(Deno.args[0] ?? 1_000_000);
const CHECKS = 20_000;
const RUNS = 9;
const MAIN = new URL("../../cli/main.ts", import.meta.url).pathname;
const DAY = 86_400_000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

function print(metric: string, value: string): void {
  console.log(`${metric}: ${value}`);
}

/** Fills the ledger with `rows` calls over the last 400 days, three roles, all channels. */
function fill(ledger: Ledger, rows: number, now: number): void {
  const roles = ["brain", "fast", "local"];
  const channels: Channel[] = ["chat", "tui", "messenger", "net", "cli"];
  const span = 400 * DAY;
  const batch: CallRecord[] = [];
  for (let i = 0; i < rows; i++) {
    const channel = channels[i % channels.length]!;
    batch.push({
      ts: now - span + Math.floor((i / rows) * span),
      role: roles[i % roles.length]!,
      provider: "vendor-a",
      model_id: "claude-sonnet-5",
      input_tokens: 800 + (i % 500),
      output_tokens: 200 + (i % 300),
      cache_read_tokens: i % 4 === 0 ? 2000 : 0,
      cache_write_tokens: 0,
      usd: i % 97 === 0 ? null : 0.0001 * (1 + (i % 7)),
      channel,
      session_id: `s${i % 5000}`,
      peer: channel === "net" ? `peer${i % 50}.example` : null,
    });
    if (batch.length === 50_000) {
      ledger.recordMany(batch);
      batch.length = 0;
    }
  }
  if (batch.length > 0) ledger.recordMany(batch);
}

async function timeRun(args: string[], env: Record<string, string>): Promise<number> {
  const start = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    env,
    stdout: "null",
    stderr: "piped",
  }).output();
  const ms = performance.now() - start;
  if (out.code !== 0) {
    throw new Error(
      `Benchmark run failed: ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`,
    );
  }
  return ms;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const home = Deno.makeTempDirSync({ prefix: "budget_bench_" });
try {
  Deno.writeTextFileSync(`${home}/agent.toml`, CONFIG_TEMPLATE);
  const now = Date.now();
  const ledger = Ledger.open(`${home}/data/spend.sqlite3`);
  const fillStart = performance.now();
  fill(ledger, ROWS, now);
  const fillMs = performance.now() - fillStart;
  print("ledger_rows", String(ledger.count()));
  print("ledger_fill_rows_per_s", String(Math.round(ROWS / (fillMs / 1000))));

  const brain: RoleConfig = {
    provider: "vendor-a",
    model_id: "claude-sonnet-5",
    params: {},
    budget: { usd: 1_000_000, period: "month", degrade_to: "fast" },
  };
  for (let i = 0; i < 500; i++) budgetStatus(ledger, "brain", brain, now);
  const times: number[] = [];
  for (let i = 0; i < CHECKS; i++) {
    const start = performance.now();
    budgetStatus(ledger, "brain", brain, now + i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const spent = budgetStatus(ledger, "brain", brain, now)!;
  print("budget_check_month_spent_usd", spent.spentUsd.toFixed(4));
  print("budget_check_p50_ms", percentile(times, 0.5).toFixed(4));
  print("budget_check_p99_ms", percentile(times, 0.99).toFixed(4));
  print("budget_check_goal", "p99 < 1 ms");

  // Hard cap: the check and the reservation in one transaction; each reservation is
  // then replaced by its call's row (untimed), as a call's end does.
  const hardRole: RoleConfig = { ...brain, budget: { ...brain.budget!, hard: true } };
  const config = {
    models: { prices: {}, roles: { brain: hardRole } },
  } as unknown as AgentConfig;
  const reserve = (id: string) => (name: string, status: BudgetStatus) =>
    ledger.begin({
      call_id: id,
      ts: now,
      pid: Deno.pid,
      role: name,
      provider: "vendor-a",
      model_id: "claude-sonnet-5",
      input_tokens: 2000,
      estimate_usd: 0.006,
      reserved_usd: 0.07,
      channel: "cli",
      session_id: null,
      peer: null,
    }, { usd: status.capUsd, sinceMs: status.sinceMs }).ok;
  const hardTimes: number[] = [];
  for (let i = 0; i < CHECKS / 4 + 200; i++) {
    const id = `bench-${i}`;
    const start = performance.now();
    const decision = checkBudget(ledger, config, "brain", now + i, reserve(id));
    const ms = performance.now() - start;
    if (!decision.ok) throw new Error("Benchmark: the hard cap refused a call");
    ledger.settle({
      call_id: id,
      ts: now + i,
      role: "brain",
      provider: "vendor-a",
      model_id: "claude-sonnet-5",
      input_tokens: 2000,
      output_tokens: 300,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      usd: 0.0105,
      channel: "cli",
      session_id: null,
      peer: null,
    });
    if (i >= 200) hardTimes.push(ms);
  }
  hardTimes.sort((a, b) => a - b);
  ledger.close();
  print("budget_check_hard_p50_ms", percentile(hardTimes, 0.5).toFixed(4));
  print("budget_check_hard_p99_ms", percentile(hardTimes, 0.99).toFixed(4));
  print("budget_check_hard_goal", "p99 < 1 ms");

  // Start-up: the same permissions for both, the user's environment minus AGENT_*.
  const env = Object.fromEntries(
    Object.entries(Deno.env.toObject()).filter(([k]) => !k.startsWith("AGENT_")),
  );
  // The flags of `deno task agent` and the installed command (lazy dynamic imports included).
  const base = [
    "run",
    "--no-prompt",
    "--unstable-lazy-dynamic-imports",
    "--allow-read",
    "--allow-write",
    "--allow-env",
    MAIN,
  ];
  const spendArgs = [...base, "--home", home, "spend"];
  const versionArgs = [...base, "--home", home, "version"];
  await timeRun(spendArgs, env); // warm Deno's caches for both
  await timeRun(versionArgs, env);
  const spendMs: number[] = [];
  const versionMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    versionMs.push(await timeRun(versionArgs, env));
    spendMs.push(await timeRun(spendArgs, env));
  }
  const ratio = median(spendMs) / median(versionMs);
  print("agent_version_startup_ms", median(versionMs).toFixed(1));
  print("agent_spend_startup_ms", median(spendMs).toFixed(1));
  print("agent_spend_vs_version_ratio", ratio.toFixed(2));
  print("agent_spend_goal", "ratio < 3");
} finally {
  Deno.removeSync(home, { recursive: true });
}
