/**
 * How fast `agent version` starts in each way of installing it, as a ratio against the
 * checkout (the `agent` task's command, `deno run <flags> cli/main.ts`) in the same
 * run: the package installed from a loopback JSR registry (its shim), the bundle
 * (`deno run <flags> agent.js`, the one file `deno task bundle` writes: its chunks
 * unpacked into the cache on the first start), and the compiled binary where `deno
 * compile` can get its runtime archive. Goal: each within 1.3x of the checkout (issue
 * 39: the bundle within 1.5x). Also the bundle's and the binary's size, `deno task agent
 * version` (the task runner's own cost), and the plain `deno bundle` file it replaced.
 *
 * Run: `deno task bench install` (or this file directly). `BENCH_RUNS` sets the runs.
 *
 * @module
 */
import { AGENT_FLAGS } from "../_agent_flags.ts";
import { startJsrRegistry } from "../../_tools/release/jsr_registry.ts";
import { installCli, publishAll } from "../../_tools/release/release_check.ts";
import { binaryName } from "../../_tools/release/compile.ts";
import { buildOneFile } from "../../_tools/release/one_file.ts";
import { tmpdirEnv } from "../_temp_dir.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? "15");

interface Way {
  name: string;
  program: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

async function timeRun(way: Way): Promise<number> {
  const start = performance.now();
  const out = await new Deno.Command(way.program, {
    args: way.args,
    cwd: way.cwd,
    env: way.env,
    clearEnv: true,
    stdout: "null",
    stderr: "piped",
  }).output();
  const ms = performance.now() - start;
  if (!out.success) {
    throw new Error(`${way.name} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return ms;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function deno(args: string[], cwd = ROOT): Promise<Deno.CommandOutput> {
  return await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
}

const work = await Deno.makeTempDir({ prefix: "agent-install-bench-" });
const token = crypto.randomUUID();
const registry = startJsrRegistry({ token });
try {
  const base = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: `${work}/user`,
    NO_COLOR: "1",
    ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
    ...tmpdirEnv(),
  };
  await Deno.mkdir(`${work}/user`);
  const home = `${work}/agent-home`;
  const ways: Way[] = [{
    name: "checkout",
    program: Deno.execPath(),
    args: ["run", ...AGENT_FLAGS, "cli/main.ts", "--home", home, "version"],
    env: base,
    cwd: ROOT,
  }, {
    name: "checkout_deno_task",
    program: Deno.execPath(),
    args: ["task", "--quiet", "agent", "--home", home, "version"],
    env: base,
    cwd: ROOT,
  }];

  await publishAll(registry, token);
  const cli = await installCli(registry, `${work}/package`);
  ways.push({
    name: "package",
    program: cli.shim,
    args: ["--home", home, "version"],
    env: cli.env,
    cwd: cli.cwd,
  });

  // The one file `deno task bundle` writes: a launcher with the chunks packed inside.
  const bundle = `${work}/agent.js`;
  await buildOneFile(bundle);
  await Deno.mkdir(`${work}/empty`);
  ways.push({
    name: "bundle",
    program: Deno.execPath(),
    args: ["run", ...AGENT_FLAGS, bundle, "--home", home, "version"],
    env: base,
    cwd: `${work}/empty`,
  });

  // What `deno task bundle` wrote before (issue 39): one `deno bundle` file, all of it
  // read, analysed and compiled on every start.
  const plain = `${work}/plain.js`;
  const bundled = await deno([
    "bundle",
    "--quiet",
    "--platform=deno",
    "--output",
    plain,
    "cli/main.ts",
  ]);
  if (!bundled.success) throw new Error(new TextDecoder().decode(bundled.stderr));
  ways.push({
    name: "bundle_plain",
    program: Deno.execPath(),
    args: ["run", ...AGENT_FLAGS, plain, "--home", home, "version"],
    env: base,
    cwd: `${work}/empty`,
  });

  const target = Deno.build.target;
  const compiled = await deno(["task", "--quiet", "compile", "--out-dir", `${work}/dist`, target]);
  let binarySize: number | undefined;
  if (compiled.success) {
    const binary = `${work}/dist/${binaryName(target)}`;
    binarySize = (await Deno.stat(binary)).size;
    ways.push({
      name: "binary",
      program: binary,
      args: ["--home", home, "version"],
      env: base,
      cwd: `${work}/empty`,
    });
  }

  for (const way of ways) await timeRun(way); // warm-up: caches filled before timing
  const times = new Map(ways.map((w) => [w.name, [] as number[]]));
  for (let i = 0; i < RUNS; i++) {
    // Interleaved, so a busy moment on the machine hits every way alike.
    for (const way of ways) times.get(way.name)!.push(await timeRun(way));
  }
  const checkout = median(times.get("checkout")!);
  console.log(`runs: ${RUNS}`);
  for (const way of ways) {
    const ms = median(times.get(way.name)!);
    const ratio = way.name === "checkout" ? "" : ` ratio: ${(ms / checkout).toFixed(2)}`;
    console.log(`${way.name}_version_ms: ${ms.toFixed(1)}${ratio}`);
  }
  if (binarySize === undefined) {
    const why = new TextDecoder().decode(compiled.stderr).trim().split("\n").at(-1);
    console.log(`binary: not built (${why})`);
  } else {
    console.log(`binary_mb: ${(binarySize / 1e6).toFixed(1)}`);
  }
  console.log(`bundle_mb: ${((await Deno.stat(bundle)).size / 1e6).toFixed(2)}`);
  console.log(`bundle_plain_mb: ${((await Deno.stat(plain)).size / 1e6).toFixed(2)}`);
  console.log("goal: package, bundle and binary ratios < 1.3 against the checkout");
} finally {
  await registry.close();
  await Deno.remove(work, { recursive: true });
}
