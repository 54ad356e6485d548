/**
 * `agent hub systemd-unit`: a systemd unit, with absolute paths, that runs the hub.
 *
 * @module
 */

/** The permissions the hub runs with under Deno. */
export const HUB_DENO_FLAGS = [
  "run",
  "--no-prompt",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-net",
  "--allow-run",
  "--allow-sys",
];

/**
 * The argument vector that starts `agent hub run`: Deno plus flags plus the CLI module,
 * or a compiled `agent` binary alone when `mainModule` is absent.
 */
export function hubCommandLine(
  executable: string,
  mainModule: string | undefined,
  home: string,
): string[] {
  const tail = ["--home", home, "hub", "run"];
  return mainModule === undefined
    ? [executable, ...tail]
    : [executable, ...HUB_DENO_FLAGS, mainModule, ...tail];
}

/** Options for {@linkcode systemdUnit}. */
export interface SystemdUnitOptions {
  /** The Deno executable (`--python PATH` on the command line; it keeps the spec's name). */
  executable: string;
  /** The CLI entry module as an absolute path; absent for a compiled binary. */
  mainModule?: string | undefined;
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
 * const unit = systemdUnit({ executable: "/usr/bin/deno", mainModule: "/opt/a/cli/main.ts", home: "/h" });
 * if (!unit.includes("ExecStart=/usr/bin/deno run")) throw new Error(unit);
 * ```
 */
export function systemdUnit(options: SystemdUnitOptions): string {
  const argv = hubCommandLine(options.executable, options.mainModule, options.home);
  const env = [`Environment=${quote(`AGENT_HOME=${options.home}`)}`];
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
