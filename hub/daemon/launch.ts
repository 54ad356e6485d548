/**
 * How the running `agent` was started, so a service file starts it the same way: from
 * a checkout (`deno run` with the checkout's `deno.json`), an installed package (the
 * flags and config `deno install` wrote into its command shim), the bundle (`deno run
 * --no-config agent.js`) or a compiled binary (alone). The flags are those of the
 * install line, `--unstable-lazy-dynamic-imports` included, never `-A`.
 *
 * @module
 */

export { AGENT_DENO_FLAGS } from "../deno_flags.ts";
import { AGENT_DENO_FLAGS } from "../deno_flags.ts";

/** The registry `jsr:` specifiers resolve against when `JSR_URL` is not set. */
export const DEFAULT_JSR_URL = "https://jsr.io/";

/** How the agent was started, and so how to start it again. */
export interface AgentLaunch {
  /** Where the code came from. */
  kind: "checkout" | "package" | "bundle" | "binary";
  /** Deno's arguments before the agent's own (`run`, flags, config, module); none for a binary. */
  denoArgs: string[];
  /** Variables the command needs besides the agent's (`JSR_URL` for another registry). */
  env: Record<string, string>;
}

/** What {@linkcode agentLaunch} looks at. */
export interface LaunchFacts {
  /** `Deno.mainModule`. */
  mainModule: string;
  /** Whether this is a compiled binary (`Deno.build.standalone`). */
  standalone: boolean;
  /** `JSR_URL` of this process, if set: the registry a `jsr:` main module came from. */
  jsrUrl?: string | undefined;
  /**
   * The arguments of the command shim `deno install` wrote for the package `@scope/name`
   * (everything between `deno run` and the arguments), if one is found.
   */
  shimArgs?: (pkg: string) => string[] | undefined;
}

/**
 * How the running agent was started.
 *
 * @example
 * ```ts
 * import { agentLaunch } from "./launch.ts";
 * const launch = agentLaunch({ mainModule: "file:///opt/agent/cli/main.ts", standalone: false });
 * if (!launch.denoArgs.includes("/opt/agent/deno.json")) throw new Error(String(launch.denoArgs));
 * ```
 */
export function agentLaunch(facts: LaunchFacts): AgentLaunch {
  if (facts.standalone) return { kind: "binary", denoArgs: [], env: {} };
  const main = new URL(facts.mainModule);
  if (main.protocol === "file:") {
    const path = decodeURIComponent(main.pathname);
    const checkout = path.match(/^(.*\/)cli\/(?:main|mod)\.ts$/);
    if (checkout !== null) {
      return {
        kind: "checkout",
        denoArgs: ["run", ...AGENT_DENO_FLAGS, "--config", `${checkout[1]}deno.json`, path],
        env: {},
      };
    }
    return { kind: "bundle", denoArgs: ["run", ...AGENT_DENO_FLAGS, "--no-config", path], env: {} };
  }
  // A package: `jsr:@scope/name[@version][/path]` (what `deno run jsr:...` reports), or
  // a JSR module URL, `<registry>/@scope/name/<version>/<path>`.
  const spec = facts.mainModule.match(/^jsr:\/?(@[^/@]+\/[^/@]+)(?:@([^/]+))?/);
  const url = facts.mainModule.match(/^(https?:\/\/.+?\/)(@[^/]+\/[^/]+)\/([^/]+)\/.+$/);
  if (spec === null && url === null) {
    return { kind: "package", denoArgs: ["run", ...AGENT_DENO_FLAGS, facts.mainModule], env: {} };
  }
  const pkg = spec?.[1] ?? url![2]!;
  const version = spec === null ? url![3] : spec[2];
  const registry = url?.[1] ?? facts.jsrUrl;
  const env: Record<string, string> = registry === undefined || registry === DEFAULT_JSR_URL
    ? {}
    : { JSR_URL: registry };
  const shim = facts.shimArgs?.(pkg);
  const denoArgs = shim !== undefined
    ? ["run", ...shim]
    : ["run", ...AGENT_DENO_FLAGS, "--no-config", `jsr:${pkg}${version ? `@${version}` : ""}`];
  return { kind: "package", denoArgs, env };
}

/**
 * The arguments between `deno run` and `"$@"` in a shell shim of `deno install`, when
 * it runs the package `pkg` (`jsr:@scope/name`, any version); otherwise `undefined`.
 *
 * @example
 * ```ts
 * import { parseShim } from "./launch.ts";
 * const text = "#!/bin/sh\nexec deno run --allow-net --config /b/.agent/deno.json 'jsr:@a/cli' \"$@\"\n";
 * const args = parseShim(text, "@a/cli");
 * if (args?.join(" ") !== "--allow-net --config /b/.agent/deno.json jsr:@a/cli") throw new Error();
 * ```
 */
export function parseShim(text: string, pkg: string): string[] | undefined {
  const line = text.split("\n").find((l) => /^exec\s+\S*deno\S*\s+run\s/.test(l));
  if (line === undefined) return undefined;
  const words: string[] = [];
  for (const match of line.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g)) {
    words.push(match[1] ?? match[2]?.replace(/\\(.)/g, "$1") ?? match[3]!);
  }
  const run = words.indexOf("run");
  const end = words.lastIndexOf("$@");
  const args = words.slice(run + 1, end < 0 ? words.length : end);
  const module = args.at(-1) ?? "";
  if (module !== `jsr:${pkg}` && !module.startsWith(`jsr:${pkg}@`)) return undefined;
  return args;
}

/**
 * Reads the shim `deno install` wrote for `pkg` as `agent`: under `DENO_INSTALL_ROOT`,
 * else `~/.deno`. `undefined` when there is none, or it runs something else.
 */
export function readAgentShim(
  pkg: string,
  env: Record<string, string | undefined>,
): string[] | undefined {
  const roots = [env.DENO_INSTALL_ROOT, env.HOME ? `${env.HOME}/.deno` : undefined];
  for (const root of roots) {
    if (root === undefined || root === "") continue;
    try {
      const args = parseShim(Deno.readTextFileSync(`${root}/bin/agent`), pkg);
      if (args !== undefined) return args;
    } catch { /* no shim here */ }
  }
  return undefined;
}
