/**
 * The `shell` tool: a command run with `sh -c` inside bubblewrap, never on the host.
 * Off unless `[tools.shell] enabled = true` and `bwrap` works here (`agent doctor` says
 * when it does not). Tier 2 every time: no setting lowers it, and it is never offered
 * to a network turn or a job. The owner's approval shows the whole command and whether
 * it may use the network.
 *
 * Inside: the system read-only, the conversation's scratch folder
 * (`<data>/scratch/<session>`) writable at `/work` and kept between calls, a fresh
 * `/tmp`; not the agent's home (`.env`, the identity) nor its data folder; no network
 * unless the approved call asked for it. A command is killed after `timeout_seconds`
 * (60) and its output cut at `max_output_kb` (64 KB).
 *
 * @module
 */
import { z } from "zod";
import { currentLang } from "../i18n.ts";
import { printable } from "../text.ts";
import { SHELL_DEFAULTS } from "../config/mod.ts";
import { findBwrap, runLimited, sandboxArgs } from "../sandbox/mod.ts";
import type { AgentTool, ToolContext } from "./tool.ts";
import { untrustedText } from "./untrusted.ts";
import { t } from "./_shell_messages.ts";

/** Where the command runs, inside the sandbox. */
export const SHELL_WORKDIR = "/work";

/** The command's environment: nothing of the agent's. */
const SHELL_ENV = {
  PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
  HOME: SHELL_WORKDIR,
  LANG: "C.UTF-8",
  TERM: "dumb",
};

/** The scratch folder of a conversation (a session id, or `default`). */
export function scratchFolder(dataDir: string, sessionId: string | undefined): string {
  const name = (sessionId ?? "default").replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 100);
  return `${dataDir}/scratch/${name === "" || name.startsWith(".") ? "default" : name}`;
}

/** `shell`: runs a command in the sandbox (tier 2, every call asked). */
export const shell: AgentTool = {
  name: "shell",
  tier: 2,
  description:
    `Run a shell command (sh -c) in a sandbox: the system is read-only, ${SHELL_WORKDIR} is this conversation's scratch folder (writable, kept between calls), and there is no network unless you set network=true. The owner approves every command. Output is cut at 64 KB; a command is stopped after 60 seconds.`,
  inputSchema: z.object({
    command: z.string().min(1).max(8000),
    network: z.boolean().optional().describe("the command needs the network"),
  }),
  describe(input: { command: string; network?: boolean }, lang) {
    return t(lang, input.network === true ? "approve_network" : "approve", {
      command: printable(input.command),
    });
  },
  // A command's output can carry anything (a page it fetched, a file someone else wrote).
  untrusted: true,
  async offered(settings) {
    return settings.shell.enabled && await findBwrap() !== undefined;
  },
  async execute(input: { command: string; network?: boolean }, context: ToolContext) {
    const lang = currentLang(context.env);
    const settings = context.settings?.shell ?? SHELL_DEFAULTS;
    const bwrap = await findBwrap();
    if (!settings.enabled || bwrap === undefined) throw new Error(t(lang, "off"));
    const scratch = scratchFolder(context.paths.dataDir, context.sessionId);
    await Deno.mkdir(scratch, { recursive: true, mode: 0o700 });
    const args = sandboxArgs(["sh", "-c", input.command], {
      binds: [{ host: scratch, inside: SHELL_WORKDIR, writable: true }],
      hidden: [context.paths.home, context.paths.dataDir],
      network: input.network === true,
      cwd: SHELL_WORKDIR,
      env: SHELL_ENV,
    });
    const run = await runLimited(bwrap, args, {
      env: {},
      timeoutMs: settings.timeout_seconds * 1000,
      maxBytes: settings.max_output_kb * 1024,
      signal: context.signal,
    });
    const output = run.stderr === ""
      ? run.stdout
      : `${run.stdout}${run.stdout === "" || run.stdout.endsWith("\n") ? "" : "\n"}${run.stderr}`;
    return {
      exit_code: run.code,
      ...(run.timedOut
        ? { timed_out: t("en", "timed_out", { seconds: settings.timeout_seconds }) }
        : {}),
      ...untrustedText("shell", output, settings.max_output_kb * 1024),
      ...(run.truncated ? { truncated: true } : {}),
    };
  },
};
