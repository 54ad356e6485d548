/**
 * `agent hub run` as a process for end-to-end tests, and waiting until its control API
 * answers.
 *
 * @module
 */
import { AGENT_FLAGS } from "../_agent_flags.ts";
import { controlJson } from "../_control.ts";
import { until } from "../_poll.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Starts `agent hub run` for `home` (output dropped unless `piped`). */
export function spawnHubProcess(
  home: string,
  options: { env?: Record<string, string>; piped?: boolean } = {},
): Deno.ChildProcess {
  const io = options.piped ? "piped" : "null";
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...AGENT_FLAGS, `${ROOT}cli/main.ts`, "--home", home, "hub", "run"],
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
  });
  return status;
}
