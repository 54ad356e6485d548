/**
 * What a test's `agent` command costs run in the test's process (`agent()` of
 * `tests/cli/_run.ts`, the default) against a process of its own (`process: true`), for
 * the commands the end-to-end layer runs most. Processor time is this process's and its
 * waited-for children's (`/proc/self/stat`); the two ways alternate, round by round.
 * Issue 35's suite time is the figure this serves: the layer runs some 400 such commands.
 *
 * Run: `deno task bench cli_here` (or this file directly).
 *
 * @module
 */
import { agent, cleanup, initHome, tempHome } from "../cli/_run.ts";

const ROUNDS = Number(Deno.env.get("BENCH_RUNS") ?? "5");
const COMMANDS = [
  ["doctor"],
  ["spend"],
  ["memory", "list"],
  ["jobs", "list"],
  ["net", "status"],
  ["components"],
  ["frobnicate"],
];

/** Processor seconds of this process and its waited-for children (`utime stime cutime cstime`). */
function cpuSeconds(): number {
  const stat = Deno.readTextFileSync("/proc/self/stat");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // After the name: state is field 3, so utime..cstime (14..17) sit at 11..14 here.
  const ticks = fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0);
  return ticks / 100;
}

async function round(home: string, process: boolean): Promise<{ wall: number; cpu: number }> {
  const cpu = cpuSeconds();
  const start = performance.now();
  for (const args of COMMANDS) {
    const r = await agent(["--home", home, ...args], { process });
    if (r.code !== 0 && args[0] !== "frobnicate") {
      throw new Error(`agent ${args.join(" ")}: ${r.stderr}`);
    }
  }
  return { wall: (performance.now() - start) / 1000, cpu: cpuSeconds() - cpu };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

const home = await initHome(tempHome());
try {
  await round(home, false); // the CLI's modules loaded here once, as a test file's first run does
  await round(home, true);
  const here: { wall: number; cpu: number }[] = [];
  const spawned: { wall: number; cpu: number }[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    here.push(await round(home, false));
    spawned.push(await round(home, true));
  }
  const n = COMMANDS.length;
  const show = (label: string, runs: { wall: number; cpu: number }[]) =>
    console.log(
      `${label}: ${(median(runs.map((r) => r.cpu)) / n * 1000).toFixed(0)} ms CPU, ${
        (median(runs.map((r) => r.wall)) / n * 1000).toFixed(0)
      } ms wall per command (median of ${ROUNDS} rounds of ${n})`,
    );
  show("in the test's process", here);
  show("a process of its own ", spawned);
  const ratio = median(here.map((r) => r.cpu)) / median(spawned.map((r) => r.cpu));
  console.log(`CPU ratio, in process / own process: ${ratio.toFixed(2)}`);
} finally {
  await cleanup();
}
