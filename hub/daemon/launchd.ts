/**
 * The macOS launchd user agent that keeps a hub running: its plist, and install,
 * uninstall and state through `launchctl`.
 *
 * @module
 */
import { writeFileAtomic } from "../atomic_file.ts";
import { hubCommandLine } from "./systemd.ts";
import type { AgentLaunch } from "./launch.ts";

/** The launchd label of the hub agent. */
export const LAUNCHD_LABEL = "agent.hub";

/** Runs a program and reports its exit code and output (injectable for tests). */
export type Runner = (program: string, args: string[]) => Promise<{
  code: number;
  stdout: string;
  stderr: string;
}>;

/** Runs a real program with `Deno.Command`. */
export async function runProgram(
  program: string,
  args: string[],
): ReturnType<Runner> {
  const result = await new Deno.Command(program, { args, stdout: "piped", stderr: "piped" })
    .output();
  const decoder = new TextDecoder();
  return {
    code: result.code,
    stdout: decoder.decode(result.stdout),
    stderr: decoder.decode(result.stderr),
  };
}

/** Where the plist goes: `~/Library/LaunchAgents/agent.hub.plist`. */
export function plistFile(userHome: string): string {
  return `${userHome}/Library/LaunchAgents/${LAUNCHD_LABEL}.plist`;
}

/** Options for {@linkcode launchdPlist}. */
export interface PlistOptions {
  /** The Deno executable (or the compiled `agent` binary). */
  executable: string;
  /** How the agent was started ({@linkcode agentLaunch}); absent for a compiled binary. */
  launch?: AgentLaunch | undefined;
  home: string;
  /** Where stdout and stderr go. */
  logFile: string;
}

/** Builds the launchd plist that starts `agent hub run` at login and keeps it alive. */
export function launchdPlist(options: PlistOptions): string {
  const args = hubCommandLine(options.executable, options.launch, options.home);
  const x = (s: string) =>
    s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
  const env = Object.entries({ AGENT_HOME: options.home, ...options.launch?.env })
    .map(([name, value]) => `    <key>${x(name)}</key>\n    <string>${x(value)}</string>`);
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>${LAUNCHD_LABEL}</string>
  <key>ProgramArguments</key>
  <array>
${args.map((a) => `    <string>${x(a)}</string>`).join("\n")}
  </array>
  <key>EnvironmentVariables</key>
  <dict>
${env.join("\n")}
  </dict>
  <key>RunAtLoad</key>
  <true/>
  <key>KeepAlive</key>
  <dict>
    <key>SuccessfulExit</key>
    <false/>
  </dict>
  <key>ThrottleInterval</key>
  <integer>10</integer>
  <key>ExitTimeOut</key>
  <integer>20</integer>
  <key>StandardOutPath</key>
  <string>${x(options.logFile)}</string>
  <key>StandardErrorPath</key>
  <string>${x(options.logFile)}</string>
</dict>
</plist>
`;
}

/** The launchd state of the hub agent. */
export type LaunchdState = "not_applicable" | "not_installed" | "installed" | "loaded";

/** Reads the launchd state (macOS only; elsewhere `not_applicable`). */
export async function launchdState(
  userHome: string,
  uid: number,
  run: Runner = runProgram,
): Promise<LaunchdState> {
  if (Deno.build.os !== "darwin") return "not_applicable";
  try {
    await Deno.stat(plistFile(userHome));
  } catch {
    return "not_installed";
  }
  try {
    const res = await run("launchctl", ["print", `gui/${uid}/${LAUNCHD_LABEL}`]);
    return res.code === 0 ? "loaded" : "installed";
  } catch {
    return "installed";
  }
}

/** Installs (or refreshes) the plist and loads it; idempotent. Throws with the sentence. */
export async function installLaunchd(
  userHome: string,
  uid: number,
  plist: string,
  run: Runner = runProgram,
): Promise<string> {
  const domain = `gui/${uid}`;
  const probe = await run("launchctl", ["print", domain]);
  if (probe.code !== 0) throw new LaunchdError("no_gui");
  const file = plistFile(userHome);
  await Deno.mkdir(`${userHome}/Library/LaunchAgents`, { recursive: true });
  await writeFileAtomic(file, plist, { mode: 0o644 });
  // Reinstalling replaces the loaded job, so a changed path takes effect.
  await run("launchctl", ["bootout", `${domain}/${LAUNCHD_LABEL}`]);
  const boot = await run("launchctl", ["bootstrap", domain, file]);
  if (boot.code !== 0) throw new LaunchdError("launchctl_failed", boot.stderr.trim());
  return file;
}

/** Unloads and removes the plist; returns false when nothing was installed. */
export async function uninstallLaunchd(
  userHome: string,
  uid: number,
  run: Runner = runProgram,
): Promise<boolean> {
  const file = plistFile(userHome);
  let present = true;
  try {
    await Deno.stat(file);
  } catch {
    present = false;
  }
  const out = await run("launchctl", ["bootout", `gui/${uid}/${LAUNCHD_LABEL}`]);
  if (present) await Deno.remove(file);
  return present || out.code === 0;
}

/** A launchd step failed; `key` names the sentence in the daemon catalogue. */
export class LaunchdError extends Error {
  override name = "LaunchdError";
  /** The catalogue key of the user sentence. */
  key: "no_gui" | "launchctl_failed";
  /** launchctl's own words, when it failed. */
  detail: string;

  constructor(key: "no_gui" | "launchctl_failed", detail = "") {
    super(`launchd: ${key}${detail ? `: ${detail}` : ""}`);
    this.key = key;
    this.detail = detail;
  }
}
