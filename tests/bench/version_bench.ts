/**
 * How fast `agent version` starts compared with an empty `deno run` script, both
 * with the `agent` task's permissions. Goal: a ratio under 3.
 *
 * Run: `deno task bench version` (or this file directly).
 *
 * @module
 */
import { AGENT_FLAGS } from "../_agent_flags.ts";

const PERMS = AGENT_FLAGS;
const ROOT = new URL("../../", import.meta.url).pathname;
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? "15");

async function timeRun(args: string[]): Promise<number> {
  const start = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...PERMS, ...args],
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

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const dir = await Deno.makeTempDir({ prefix: "agent-bench-" });
const empty = `${dir}/empty.ts`;
await Deno.writeTextFile(empty, "");
const home = `${dir}/home`;
try {
  // One warm-up each so the module cache is filled before timing.
  await timeRun([empty]);
  await timeRun(["cli/main.ts", "--home", home, "version"]);
  const emptyMs: number[] = [];
  const versionMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    // Interleaved, so a busy moment on the machine hits both sides alike.
    emptyMs.push(await timeRun([empty]));
    versionMs.push(await timeRun(["cli/main.ts", "--home", home, "version"]));
  }
  const e = median(emptyMs);
  const v = median(versionMs);
  console.log(`runs: ${RUNS}`);
  console.log(`empty_deno_run_ms: ${e.toFixed(1)}`);
  console.log(`agent_version_ms: ${v.toFixed(1)}`);
  console.log(`ratio: ${(v / e).toFixed(2)}`);
  console.log(`goal: ratio < 3`);
} finally {
  await Deno.remove(dir, { recursive: true });
}
