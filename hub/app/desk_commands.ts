/**
 * The slash commands that reach outside a conversation, registered on the desk by
 * whoever assembles it (the hub, `agent chat`, `agent tui`): `/status` (the session, the
 * role, the budgets and what the hub adds about itself), `/settings [set NAME]` (which
 * credentials are set; in a terminal, one saved to `.env`) and `/jobs [pause|resume
 * [NAME]]`. They live here so the desk imports neither the jobs nor the hub: each reads
 * the conversation through its `CommandContext` and asks for changes with effects.
 *
 * @module
 */
import { credentialLines } from "../credentials.ts";
import { readEnvFile, setEnvKey } from "../env_file.ts";
import { budgetLine, forecastLine, forecastReport, spendReport } from "../spend/mod.ts";
import { UserError } from "../user_error.ts";
import { MAIN_AGENT_ID } from "../agent/mod.ts";
import type { AgentConfig } from "../config/types.ts";
import {
  type Choice,
  type CommandContext,
  type CommandReturn,
  type CommandSpec,
  credentialNames,
  deskSentence as t,
} from "../desk/mod.ts";
import { listJobs, pauseJobs, resumeJobs } from "../jobs/manage.ts";
import { listLines } from "../jobs/lines.ts";
import { memoryCommands } from "./memory_commands.ts";

/** Options for {@linkcode appCommands}. */
export interface AppCommandsOptions {
  /** Lines `/status` adds about the hub (the network), where the hub is at hand. */
  statusLines?: (() => string[]) | undefined;
}

/**
 * `/status`, `/settings`, `/jobs` and the memory's (`/memory`, `/remember`, `/forget`),
 * in `/help` order, for `DeskOptions.commands`.
 */
export function appCommands(options: AppCommandsOptions = {}): CommandSpec[] {
  return [
    {
      word: "/status",
      usage: "/status",
      summary: (lang) => t(lang, "cmd_status"),
      run: (ctx) => status(ctx, options),
    },
    {
      word: "/settings",
      usage: "/settings [set NAME]",
      summary: (lang) => t(lang, "cmd_settings"),
      run: settings,
      choices: {
        kind: "settings",
        list: (ctx) => Promise.resolve(settingChoices(ctx.config.models.roles, ctx.env)),
      },
    },
    {
      word: "/jobs",
      usage: "/jobs [pause|resume [NAME]]",
      summary: (lang) => t(lang, "cmd_jobs"),
      run: jobs,
    },
    ...memoryCommands(),
  ];
}

/**
 * The `/settings` picker: each credential variable the roles read, its state
 * (`needed`, `set`, `optional`) and the roles that read it, needed ones first.
 */
export function settingChoices(
  roles: AgentConfig["models"]["roles"],
  env: Readonly<Record<string, string | undefined>>,
): Choice[] {
  return credentialLines(roles, env).map((line) => ({
    value: line.name,
    label: line.roles.join(", "),
    state: line.state,
  }));
}

async function status(ctx: CommandContext, options: AppCommandsOptions): Promise<CommandReturn> {
  const { lang } = ctx;
  const count = (await ctx.sessions.listMessages(ctx.sessionId, MAIN_AGENT_ID))?.length ?? 0;
  const lines = [t(lang, "status", {
    session: ctx.sessionId,
    count,
    lang,
    profile: ctx.profile,
    role: ctx.role,
    ...ctx.target(ctx.role),
  })];
  const now = ctx.now();
  const report = spendReport(ctx.config, ctx.ledger, now);
  lines.push(budgetLine(report, lang));
  const forecasts = forecastReport(report, now);
  if (Object.keys(forecasts).length > 0) lines.push(forecastLine(forecasts, lang));
  lines.push(...(options.statusLines?.() ?? []));
  return { lines };
}

/** The sentence of each state a credential variable is in. */
const SETTING_STATE = {
  needed: "setting_missing",
  set: "setting_set",
  optional: "setting_optional",
} as const;

async function settings(ctx: CommandContext, args: string[]): Promise<CommandReturn> {
  const { lang, paths } = ctx;
  const [sub, name] = args;
  if (sub === "set" && name !== undefined) {
    if (!/^[A-Z][A-Z0-9_]*$/.test(name)) {
      return { lines: [t(lang, "settings_bad_name", { name })] };
    }
    // Piped input would take the next line (a message, `/quit`) as the key.
    if (ctx.secret === undefined) {
      const key = ctx.channel === "chat" ? "settings_no_terminal" : "settings_elsewhere";
      return { lines: [t(lang, key, { name, file: paths.envFile })] };
    }
    const value = (await ctx.secret(t(lang, "settings_prompt", { name })))?.trim() ?? "";
    if (value === "") return { lines: [t(lang, "settings_empty", { name })] };
    await setEnvKey(paths.envFile, name, value);
    return {
      lines: [t(lang, "settings_saved", { name, file: paths.envFile })],
      effects: [{ type: "env", name, value }],
    };
  }
  const lines = [t(lang, "settings_title")];
  const inFile = Object.keys(await readEnvFile(paths.envFile));
  // A variable nothing needs (a default or another variable stands in) is optional.
  const states = new Map(
    credentialLines(ctx.config.models.roles, ctx.env).map((line) => [line.name, line.state]),
  );
  for (const name of new Set([...credentialNames(ctx.config), ...inFile])) {
    const set = (ctx.env[name] ?? "").trim() !== "";
    const state = states.get(name) ?? (set ? "set" : "optional");
    lines.push(t(lang, "setting_line", { name, state: t(lang, SETTING_STATE[state]) }));
  }
  const terminal = ctx.channel === "chat" || ctx.channel === "tui";
  lines.push(t(lang, terminal ? "settings_hint" : "settings_elsewhere", { file: paths.envFile }));
  return { lines };
}

/**
 * `/jobs`: the scheduled jobs (next run, last outcome, spend today); `/jobs pause` and
 * `/jobs resume` stop and restart every job at once (or one, by name).
 */
async function jobs(ctx: CommandContext, args: string[]): Promise<CommandReturn> {
  const scope = {
    paths: ctx.paths,
    config: ctx.config,
    lang: ctx.lang,
    nowMs: ctx.now(),
    env: ctx.env,
    resumeAll: "/jobs resume",
  };
  const [action, name] = args;
  if (action === undefined || action === "list") {
    const columns = ctx.columns?.();
    return { lines: [listLines(await listJobs(scope), ctx.lang, { columns }).join("\n")] };
  }
  if (action !== "pause" && action !== "resume") {
    return { lines: [t(ctx.lang, "jobs_usage")] };
  }
  try {
    const act = action === "pause" ? pauseJobs : resumeJobs;
    return { lines: [await act(scope, name)] };
  } catch (error) {
    if (error instanceof UserError) return { lines: [error.message] };
    throw error;
  }
}
