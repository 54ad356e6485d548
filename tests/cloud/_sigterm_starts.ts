/**
 * SIGTERM at random moments of `agent cloud run` starts (issue 27 R1): each start is an
 * `agent cloud run` process in an empty home that gets one SIGTERM, either early (at a
 * random moment of the 300 ms after it wrote its `agent.toml`, while the hub starts) or
 * late (at a random moment of the 50 ms, or of the 800 ms, after `/health` first answered, while the hub
 * takes its lock, serves its control API and beats its first heartbeat). Every exit must
 * be clean: code 0, no `hub.lock`, no temporary file of an atomic write.
 *
 * Used by `tests/cloud/cloud_signals_test.ts` (a few starts) and `deno task bench cloud`
 * (50).
 *
 * @module
 */
import { RUN_FLAGS } from "../_agent_flags.ts";
import { tmpdirEnv } from "../_temp_dir.ts";
import { tempHome } from "../cli/_run.ts";
import { CLOUD_TOKEN } from "./_cloud.ts";
import { until } from "../_poll.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** One start's outcome. */
export interface SigtermStart {
  /** `early` (after agent.toml, before or around /health) or `late` (after /health). */
  when: "early" | "late";
  /** Milliseconds after the moment it waited for that the SIGTERM was sent. */
  delayMs: number;
  code: number;
  /** What was left behind in the data folder: `hub.lock` or `*.tmp` files. */
  leftovers: string[];
  stderr: string;
}

/** The figures of a series of starts. */
export interface SigtermFigures {
  starts: SigtermStart[];
  /** Starts that exited 0 and left nothing behind. */
  clean: number;
}

/** A deterministic random source (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

async function leftoversIn(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (path: string) => {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(path));
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = `${path}/${entry.name}`;
      if (entry.isDirectory) await walk(full);
      else if (entry.name === "hub.lock" || entry.name.endsWith(".tmp")) found.push(full);
    }
  };
  await walk(dir);
  return found;
}

async function healthy(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/health`);
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * Runs `count` starts against a cloud spine at `spineUrl` (files already pushed), the
 * brain's health on `port`. Seeded, so a failing series can be replayed.
 */
export async function sigtermStarts(
  spineUrl: string,
  port: number,
  count: number,
  seed = 27,
): Promise<SigtermFigures> {
  const rand = random(seed);
  const starts: SigtermStart[] = [];
  for (let i = 0; i < count; i++) {
    const home = await tempHome();
    const when = rand() < 0.3 ? "early" : "late";
    // Half the late ones land in the first 50 ms, where the hub takes its lock.
    const span = when === "early" ? 300 : rand() < 0.5 ? 50 : 800;
    const delayMs = Math.floor(rand() * span);
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", ...RUN_FLAGS, `${ROOT}cli/main.ts`, "cloud", "run"],
      clearEnv: true,
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: home,
        DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME") ?? "/root"}/.cache/deno`,
        NO_COLOR: "1",
        AGENT_HOME: home,
        AGENT_CLOUD_HEALTH_HOST: "127.0.0.1",
        AGENT_CLOUD_HEALTH_PORT: String(port),
        AGENT_SPINE_URL: spineUrl,
        AGENT_SPINE_TOKEN: CLOUD_TOKEN,
        ...tmpdirEnv(),
      },
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const output = child.output();
    let ended = false;
    output.finally(() => ended = true).catch(() => {});
    const reached = when === "early" ? () => exists(`${home}/agent.toml`) : () => healthy(port);
    await until(
      `the hub to reach its ${when} point (or end)`,
      async () => ended || await reached(),
      {
        intervalMs: 5,
      },
    ).catch(() => {});
    await new Promise((r) => setTimeout(r, delayMs));
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    const stopTimer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
    }, 30_000);
    const out = await output;
    clearTimeout(stopTimer);
    starts.push({
      when,
      delayMs,
      code: out.code,
      leftovers: await leftoversIn(`${home}/data`),
      stderr: new TextDecoder().decode(out.stderr),
    });
  }
  const clean = starts.filter((s) => s.code === 0 && s.leftovers.length === 0).length;
  return { starts, clean };
}

/** One line of figures: starts, clean exits, and each unclean one. */
export function sigtermLine(figures: SigtermFigures): string {
  const early = figures.starts.filter((s) => s.when === "early").length;
  const bad = figures.starts.filter((s) => s.code !== 0 || s.leftovers.length > 0)
    .map((s) => `${s.when}+${s.delayMs}ms: exit ${s.code} ${s.leftovers.join(" ")}`.trim());
  return `agent cloud run SIGTERM at random moments: ${figures.clean}/${figures.starts.length} ` +
    `clean exits (${early} early, ${figures.starts.length - early} after /health; goal all)` +
    (bad.length > 0 ? `; unclean: ${bad.join("; ")}` : "");
}
