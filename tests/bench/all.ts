/**
 * Runs every `tests/bench/*_bench.ts` in its own subprocess with the `agent` task's
 * permissions, or only the one named on the command line (`version` or
 * `version_bench.ts`). Exits 1 when a benchmark fails.
 *
 * @module
 */
import { AGENT_FLAGS } from "../_agent_flags.ts";

const PERMS = AGENT_FLAGS;
const DIR = new URL("./", import.meta.url).pathname;
const ROOT = new URL("../../", import.meta.url).pathname;

const all: string[] = [];
for await (const entry of Deno.readDir(DIR)) {
  if (entry.isFile && entry.name.endsWith("_bench.ts")) all.push(entry.name);
}
all.sort();

const wanted = Deno.args[0];
const chosen = wanted === undefined
  ? all
  : all.filter((name) =>
    name === wanted || name === `${wanted}_bench.ts` || name === `${wanted}.ts`
  );
if (chosen.length === 0) {
  console.error(`No benchmark named '${wanted}'; there are: ${all.join(", ")}.`);
  Deno.exit(2);
}

// playwright-core reads /proc paths that only --allow-all opens (and so do the soak, for RSS,
// cli_here, for its own and its children's CPU, and the workerd benchmarks, for workerd's
// CPU and memory: tests/bench/_workerd_proc.ts).
const NEEDS_ALL = new Set([
  "cli_here_bench.ts",
  "spine_bench.ts",
  "universe_scale_bench.ts",
  "universe_bench.ts",
  "map_bench.ts",
  "dashboard_bench.ts",
  "soak_bench.ts",
  "email_bench.ts",
]);
// Memory slopes are read after a full collection, which `gc()` starts.
const EXPOSE_GC = new Set(["context_bench.ts", "jobs_bench.ts"]);

let failed = 0;
for (const name of chosen) {
  console.log(`# ${name}`);
  const status = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...(NEEDS_ALL.has(name) ? ["--no-prompt", "--allow-all"] : PERMS),
      ...(EXPOSE_GC.has(name) ? ["--v8-flags=--expose-gc"] : []),
      `${DIR}${name}`,
    ],
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  }).spawn().status;
  if (!status.success) {
    failed++;
    console.log(`# ${name} failed (exit ${status.code})`);
  }
}
Deno.exit(failed > 0 ? 1 : 0);
