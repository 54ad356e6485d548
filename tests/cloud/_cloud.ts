/**
 * Cloud mode end to end: a cloud-mode spine on workerd whose brain is an
 * `agent cloud run` process on this machine (`BRAIN_URL`), homes with the files
 * `agent cloud` moves, and the command as a subprocess.
 *
 * @module
 */
import { RUN_FLAGS } from "../_agent_flags.ts";
import { tmpdirEnv } from "../_temp_dir.ts";
import { agent, type RunResult, tempHome, withReplies } from "../cli/_run.ts";
import { type RunningSpine, startSpine, type StartSpineOptions } from "../spine/_harness.ts";
import { freePort } from "../_port.ts";
import { until } from "../_poll.ts";
import { initHomeAt } from "../_init_home.ts";
import { Logger, readEnvFileSync, resolvePaths, VERSION } from "@agent/hub/base";
import { runCloud } from "@agent/hub";
import { CloudSpine, cloudTarget, pushFiles } from "@agent/hub/cloud";

const ROOT = new URL("../../", import.meta.url).pathname;

/** The hub token of the cloud spine. */
export const CLOUD_TOKEN = "cloud-token-0123456789abcdef";

/** The options of a cloud spine whose brain is to listen on `brainPort`. */
export function cloudSpineOptions(brainPort: number): StartSpineOptions {
  return {
    hubToken: CLOUD_TOKEN,
    mode: "cloud",
    vars: { BRAIN_URL: `http://127.0.0.1:${brainPort}` },
  };
}

/** A cloud spine and the port its brain (an `agent cloud run`) is to listen on. */
export async function cloudSpine(): Promise<{ spine: RunningSpine; brainPort: number }> {
  const brainPort = freePort();
  const spine = await startSpine(cloudSpineOptions(brainPort));
  return { spine, brainPort };
}

/**
 * Deletes every file on a cloud spine, for a test that takes turns on one spine with
 * others (`fileSpines()`) and starts from a spine without files, as a fresh one is.
 */
export async function emptyFiles(spine: RunningSpine): Promise<void> {
  const client = new CloudSpine(spine.url, CLOUD_TOKEN, "en");
  for (const file of (await client.files()).files) await client.remove(file.name);
}

/** A home with a fake-provider agent.toml, persona files and sub-agent files. */
export async function cloudHome(
  spine: RunningSpine,
  options: { replies?: string[]; env?: Record<string, string> } = {},
): Promise<string> {
  const home = await tempHome();
  await initHomeAt(home);
  let toml = await Deno.readTextFile(`${home}/agent.toml`);
  toml = toml.replace(/^port = \d+$/m, `port = ${freePort()}`);
  if (options.replies) toml = withReplies(toml, options.replies);
  await Deno.writeTextFile(`${home}/agent.toml`, `# my agent, pushed to the cloud\n${toml}`);
  await Deno.writeTextFile(`${home}/persona/persona.md`, "# Persona\nHelpful and brief.\n");
  await Deno.writeTextFile(`${home}/persona/user.md`, "# Me\nPrivate things.\n");
  await Deno.writeTextFile(`${home}/persona/net.md`, "# Public note\n");
  await Deno.mkdir(`${home}/persona/subs/drafts`, { recursive: true });
  await Deno.writeTextFile(`${home}/persona/subs/writer.md`, "# Writer\npublic: true\n");
  await Deno.writeTextFile(`${home}/persona/subs/notes.txt`, "not a sub-agent\n");
  await Deno.symlink(`${home}/persona/persona.md`, `${home}/persona/subs/linked.md`);
  await setEnv(home, {
    AGENT_SPINE_URL: spine.url,
    AGENT_SPINE_TOKEN: CLOUD_TOKEN,
    ...options.env,
  });
  return home;
}

/** Appends lines to a home's `.env`. */
export async function setEnv(home: string, vars: Record<string, string>): Promise<void> {
  await Deno.writeTextFile(
    `${home}/.env`,
    Object.entries(vars).map(([k, v]) => `${k}=${v}`).join("\n") + "\n",
    { append: true, mode: 0o600 },
  );
}

/**
 * What `agent --home HOME cloud push -y` does, in this process: the same `pushFiles()`
 * on the spine named in the home's `.env`. For tests whose point comes after the push (a
 * spawned push costs a process start; cloud_e2e_test.ts and jobs_cloud_test.ts run the
 * real command). Returns the lines the command would print.
 */
export async function pushHome(home: string): Promise<string[]> {
  const paths = resolvePaths({ home, env: {} });
  const { url, token } = cloudTarget(readEnvFileSync(paths.envFile), "en");
  const lines: string[] = [];
  const code = await pushFiles({
    spine: new CloudSpine(url, token, "en"),
    home: paths.home,
    lang: "en",
    includeUser: false,
    yes: true,
    ask: undefined,
    out: (line) => lines.push(line),
  });
  if (code !== 0) throw new Error(`cloud push ended ${code}: ${lines.join("\n")}`);
  return lines;
}

/** `agent --home HOME cloud ...`. */
export function cloud(home: string, args: string[], env: Record<string, string> = {}) {
  return agent(["--home", home, "cloud", ...args], { env });
}

/**
 * `agent cloud run` in this process with `env` as its environment, for its refusals,
 * which come before it writes or starts anything: the same `runCloud()` the command
 * runs, stopped before its hub would start (a refusal that goes missing then resolves
 * 0 rather than running a hub here). A spawned start costs a process and the hub's
 * modules; cloud_e2e_test.ts keeps one refusal as the real command (its exit code, one
 * line).
 */
export function refuseCloudRun(home: string, env: Record<string, string>): Promise<number> {
  return runCloud({
    env,
    paths: resolvePaths({ home, env: {} }),
    lang: "en",
    logger: new Logger({ stderr: "off" }),
    version: VERSION,
    out: () => {},
    err: () => {},
    signal: AbortSignal.abort("a test of the refusals"),
  });
}

/** A running `agent cloud run`. */
export interface BrainProcess {
  child: Deno.ChildProcess;
  /** When `/health` first answered 200, in ms from the spawn. */
  healthyAfterMs: number;
  /** SIGTERM, then the exit code and output. */
  stop(): Promise<RunResult>;
}

/** Starts `agent cloud run` in `home` (AGENT_HOME) and waits for `/health` on `port`. */
export async function runBrain(
  home: string,
  port: number,
  env: Record<string, string>,
): Promise<BrainProcess> {
  const started = performance.now();
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
      ...tmpdirEnv(),
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output = child.output();
  let healthyAfterMs = -1;
  let ended = false;
  output.finally(() => ended = true).catch(() => {});
  await until("the hub to answer /health (or end)", async () => {
    if (ended) return true;
    const res = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
    await res?.body?.cancel();
    if (res?.ok !== true) return false;
    healthyAfterMs = performance.now() - started;
    return true;
  }).catch(() => {});
  const finish = async (): Promise<RunResult> => {
    const out = await output;
    return {
      code: out.code,
      stdout: new TextDecoder().decode(out.stdout),
      stderr: new TextDecoder().decode(out.stderr),
    };
  };
  if (healthyAfterMs < 0) {
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
    const r = await finish();
    throw new Error(`agent cloud run never became healthy (exit ${r.code}): ${r.stderr}`);
  }
  let stopped: Promise<RunResult> | undefined;
  return {
    child,
    healthyAfterMs,
    stop() {
      stopped ??= (async () => {
        try {
          child.kill("SIGTERM");
        } catch { /* gone */ }
        return await finish();
      })();
      return stopped;
    },
  };
}
