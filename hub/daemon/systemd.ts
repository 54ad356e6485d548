/**
 * `agent hub systemd-unit`: a systemd unit, with absolute paths, that runs the hub.
 *
 * @module
 */
import type { AgentLaunch } from "./launch.ts";

/**
 * The argument vector that starts `agent hub run` the way this agent was started:
 * Deno plus the launch's arguments (flags, config, module), or a compiled `agent`
 * binary alone when `launch` is absent or a binary.
 */
export function hubCommandLine(
  executable: string,
  launch: AgentLaunch | undefined,
  home: string,
): string[] {
  return [executable, ...(launch?.denoArgs ?? []), "--home", home, "hub", "run"];
}

/** Options for {@linkcode systemdUnit}. */
export interface SystemdUnitOptions {
  /** The Deno executable (`--python PATH` on the command line; it keeps the spec's name). */
  executable: string;
  /** How the agent was started ({@linkcode agentLaunch}); absent for a compiled binary. */
  launch?: AgentLaunch | undefined;
  home: string;
  /** `AGENT_DATA_DIR`, when set. */
  dataDir?: string | undefined;
}

/**
 * Builds a systemd unit (user or system) that starts the hub and stops it with SIGTERM.
 *
 * @example
 * ```ts
 * import { systemdUnit } from "./systemd.ts";
 * import { agentLaunch } from "./launch.ts";
 * const launch = agentLaunch({ mainModule: "file:///opt/a/cli/main.ts", standalone: false });
 * const unit = systemdUnit({ executable: "/usr/bin/deno", launch, home: "/h" });
 * if (!unit.includes("ExecStart=/usr/bin/deno run")) throw new Error(unit);
 * ```
 */
export function systemdUnit(options: SystemdUnitOptions): string {
  const argv = hubCommandLine(options.executable, options.launch, options.home);
  const env = [`Environment=${quote(`AGENT_HOME=${options.home}`)}`];
  for (const [name, value] of Object.entries(options.launch?.env ?? {})) {
    env.push(`Environment=${quote(`${name}=${value}`)}`);
  }
  if (options.dataDir !== undefined) {
    env.push(`Environment=${quote(`AGENT_DATA_DIR=${options.dataDir}`)}`);
  }
  return `[Unit]
Description=agent hub (personal agent: channels, network service, control API)
Wants=network-online.target
After=network-online.target

[Service]
Type=simple
ExecStart=${argv.map(quote).join(" ")}
${env.join("\n")}
WorkingDirectory=${quote(options.home)}
Restart=on-failure
RestartSec=5
KillSignal=SIGTERM
TimeoutStopSec=20

[Install]
WantedBy=default.target
`;
}

/** Quotes one word for a systemd command line when it needs it. */
function quote(word: string): string {
  // systemd expands `%` specifiers and `$` variables in ExecStart; double them.
  const escaped = word.replaceAll("%", "%%").replaceAll("$", "$$$$");
  if (/^[A-Za-z0-9_@%+=:,./$-]+$/.test(escaped)) return escaped;
  return `"${escaped.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}
