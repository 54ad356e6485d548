/**
 * The one way the tests start a hub process: `agent hub run` for a home, with the
 * `agent` task's flags; waiting until its control API answers; stopping it. (A hub in
 * the test's own process is `_hub_in_process.ts`.)
 *
 * @module
 */
import { RUN_FLAGS } from "./_agent_flags.ts";
import { controlJson } from "./_control.ts";
import { until } from "./_poll.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** Options for {@linkcode spawnHubProcess}. */
export interface HubProcessOptions {
  /** Variables added to the test's own environment. */
  env?: Record<string, string>;
  /** Pipe stdout and stderr (to read them); otherwise they are dropped. @default false */
  piped?: boolean;
}

/**
 * How long a test waits for a hub process to start: longer than the poller's default,
 * since a hub loads the whole agent and, with files side by side on a loaded 2-core
 * machine, once took more than 30 s to poll.
 */
export const HUB_START_MS = 60_000;

/** Starts `agent hub run` for `home` (output dropped unless `piped`). */
export function spawnHubProcess(home: string, options: HubProcessOptions = {}): Deno.ChildProcess {
  const io = options.piped ? "piped" : "null";
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...RUN_FLAGS, `${ROOT}cli/main.ts`, "--home", home, "hub", "run"],
    env: { NO_COLOR: "1", ...options.env },
    stdout: io,
    stderr: io,
  }).spawn();
}

/** The hub's `GET /status` on `port`, or `undefined` while it does not answer. */
// deno-lint-ignore no-explicit-any
export async function hubStatus(port: number): Promise<any> {
  try {
    return await controlJson(port, "/status");
  } catch {
    return undefined;
  }
}

/** Waits until the hub on `port` answers `/status` and `check` holds for it; returns it. */
export async function untilHub(
  port: number,
  // deno-lint-ignore no-explicit-any
  check: (status: any) => boolean = () => true,
  what = "the hub answers",
  // deno-lint-ignore no-explicit-any
): Promise<any> {
  // deno-lint-ignore no-explicit-any
  let status: any;
  await until(what, async () => {
    status = await hubStatus(port);
    return status !== undefined && check(status);
  }, { timeoutMs: HUB_START_MS });
  return status;
}

/** Stops a hub process (SIGTERM) and waits for it to end; one already gone is fine. */
export async function stopHubProcess(child: Deno.ChildProcess): Promise<Deno.CommandStatus> {
  try {
    child.kill("SIGTERM");
  } catch { /* already gone */ }
  return await child.status;
}
