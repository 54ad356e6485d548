/**
 * What the shell tool's sandbox costs: the same command (`sh -c true`, then a small
 * pipeline) run directly and inside bubblewrap the way the tool runs it, interleaved in
 * the same run. Goal: the sandbox's start adds under 50 ms (median).
 *
 * Run: `deno task bench shell`.
 *
 * @module
 */
import { findBwrap, runLimited, sandboxArgs } from "@agent/hub/mcp";

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? "30");
const ENV = { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: "/work", LANG: "C.UTF-8" };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const bwrap = await findBwrap();
if (bwrap === undefined) {
  console.log("skipped: bubblewrap (bwrap) is not installed");
  Deno.exit(0);
}
const scratch = await Deno.makeTempDir({ prefix: "agent-bench-shell-" });
try {
  const limits = { env: ENV, timeoutMs: 10_000, maxBytes: 65_536 };
  for (const command of ["true", "seq 1 1000 | sort -r | head -n 3"]) {
    const sandboxed = sandboxArgs(["sh", "-c", command], {
      binds: [{ host: scratch, inside: "/work", writable: true }],
      hidden: [],
      cwd: "/work",
      env: ENV,
    });
    const direct: number[] = [];
    const boxed: number[] = [];
    // A warm-up each, then interleaved, so a busy moment hits both sides alike.
    await runLimited("sh", ["-c", command], { ...limits, cwd: scratch });
    await runLimited(bwrap, sandboxed, { ...limits, env: {} });
    for (let i = 0; i < RUNS; i++) {
      let started = performance.now();
      const a = await runLimited("sh", ["-c", command], { ...limits, cwd: scratch });
      direct.push(performance.now() - started);
      started = performance.now();
      const b = await runLimited(bwrap, sandboxed, { ...limits, env: {} });
      boxed.push(performance.now() - started);
      if (a.code !== 0 || b.code !== 0 || a.stdout !== b.stdout) {
        throw new Error(`the runs differ: ${JSON.stringify([a, b])}`);
      }
    }
    const d = median(direct);
    const s = median(boxed);
    console.log(`command: ${command}`);
    console.log(`  runs: ${RUNS}`);
    console.log(`  direct_median_ms: ${d.toFixed(1)}`);
    console.log(`  sandboxed_median_ms: ${s.toFixed(1)}`);
    console.log(`  sandbox_start_ms: ${(s - d).toFixed(1)}`);
  }
  console.log("goal: sandbox_start_ms < 50");
} finally {
  await Deno.remove(scratch, { recursive: true });
}
