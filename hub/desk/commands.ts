/**
 * The slash commands of every conversation, in one table: `/new`, `/resume [ID]`,
 * `/model [ROLE]`, `/status`, `/settings [set NAME]`, `/jobs`, `/help`, `/quit` (and `/start`,
 * Telegram's greeting). Each entry says where it is offered, its usage and its summary
 * in both languages; `/help` and the messenger's command menu are made from the same
 * table, so no channel has commands or sentences of its own.
 *
 * @module
 */
import type { AgentConfig } from "../config/types.ts";
import { CREDENTIAL_VARIABLES, credentialState } from "../credentials.ts";
import { readEnvFile, setEnvKey } from "../env_file.ts";
import { formatTime, type Lang } from "../i18n.ts";
import {
  budgetLine,
  forecastLine,
  forecastReport,
  ledgerErrorSentence,
  spendReport,
} from "../spend/mod.ts";
import { type Ledger, LedgerError } from "../ledger/mod.ts";
import type { AgentPaths } from "../paths.ts";
import { isValidId, newSessionId, type SessionStore } from "../sessions/mod.ts";
import { type Agent, MAIN_AGENT_ID } from "../agent/mod.ts";
import { listJobs, pauseJobs, resumeJobs } from "../jobs/manage.ts";
import { listLines } from "../jobs/lines.ts";
import { UserError } from "../user_error.ts";
import { t } from "./_messages.ts";
import { type DeskChannel, sessionKind } from "./keys.ts";

/** The state of one conversation that slash commands read and change. */
export interface ConversationState {
  /** Where the conversation happens. */
  readonly channel: DeskChannel;
  config: AgentConfig;
  /** The merged environment; `/settings set` adds to it. */
  env: Record<string, string>;
  paths: AgentPaths;
  lang: Lang;
  profile: string;
  sessions: SessionStore;
  ledger: Ledger | undefined;
  /** The agent that answers; `/model` changes its role. */
  agent: Agent;
  /** The session the conversation writes to; `/resume ID` and `/new` change it. */
  sessionId: string;
  /** The role fixed by the channel (`--role`), which `/resume` then keeps. */
  fixedRole: string | undefined;
  /** Builds the agent again for `role` (after new credentials). */
  rebuild(role: string): Agent;
  /**
   * Asks for a secret without echoing it; `null` when none was given. Absent where no
   * secret can be asked (no terminal, the messenger): `/settings set` then refuses.
   */
  secret?: ((prompt: string) => Promise<string | null>) | undefined;
  /** Lines `/status` adds about the hub (the network), where the hub is at hand. */
  statusLines?: (() => string[]) | undefined;
  /**
   * How many columns the channel shows a line in, where it knows (a terminal): `/jobs`
   * fits its table to them. Absent: 80.
   */
  columns?: (() => number) | undefined;
  /** A ceiling on what the session may spend (a job's run): no call passes it. */
  ceiling?: { usd: number; sinceMs: number } | undefined;
  /** Ends the answer being written (`/stop`); `false` when none is. */
  stop(): boolean;
  now(): number;
}

/** What a slash command did. */
export interface CommandOutcome {
  lines: string[];
  /** The conversation ends (`/quit`). */
  quit?: boolean;
  /** The conversation moved to another session. */
  sessionChanged?: boolean;
  /** What a person may pick next (`/resume`'s sessions), for channels with buttons. */
  choices?: CommandChoice[];
}

/** One pick a command offers: a short label and the line that picks it. */
export interface CommandChoice {
  label: string;
  /** The line submitted when it is picked (`/resume <id>`). */
  input: string;
}

/** One slash command. */
export interface CommandSpec {
  /** `/model`. */
  word: string;
  aliases?: readonly string[];
  /** `/model [ROLE]`. */
  usage: string;
  /** Its summary's key in the desk's catalogue. */
  summary:
    | "cmd_new"
    | "cmd_resume"
    | "cmd_model"
    | "cmd_status"
    | "cmd_settings"
    | "cmd_help"
    | "cmd_quit"
    | "cmd_start"
    | "cmd_stop"
    | "cmd_jobs";
  /** The channels that offer it. @default every channel */
  channels?: readonly DeskChannel[];
  /** Handled at once, also while an answer runs, instead of waiting its turn. */
  immediate?: boolean;
  run(state: ConversationState, args: string[]): Promise<CommandOutcome>;
}

/** Every slash command, in the order `/help` lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  {
    word: "/start",
    usage: "/start",
    summary: "cmd_start",
    channels: ["messenger"],
    run: (state) => Promise.resolve({ lines: [t(state.lang, "start")] }),
  },
  { word: "/new", usage: "/new", summary: "cmd_new", run: fresh },
  {
    word: "/stop",
    aliases: ["/cancel"],
    usage: "/stop",
    summary: "cmd_stop",
    immediate: true,
    run: (state) => Promise.resolve({ lines: state.stop() ? [] : [t(state.lang, "stop_none")] }),
  },
  { word: "/resume", usage: "/resume [ID]", summary: "cmd_resume", run: resume },
  { word: "/model", usage: "/model [ROLE]", summary: "cmd_model", run: model },
  { word: "/status", usage: "/status", summary: "cmd_status", run: status },
  { word: "/settings", usage: "/settings [set NAME]", summary: "cmd_settings", run: settings },
  { word: "/jobs", usage: "/jobs [pause|resume [NAME]]", summary: "cmd_jobs", run: jobs },
  { word: "/help", usage: "/help", summary: "cmd_help", run: help },
  {
    word: "/quit",
    aliases: ["/exit"],
    usage: "/quit",
    summary: "cmd_quit",
    channels: ["chat", "tui"],
    run: () => Promise.resolve({ lines: [], quit: true }),
  },
];

/** The commands `channel` offers, in `/help` order. */
export function commandsOf(channel: DeskChannel): CommandSpec[] {
  return COMMANDS.filter((c) => c.channels === undefined || c.channels.includes(channel));
}

/** A command's summary in `lang`. */
export function commandSummary(spec: CommandSpec, lang: Lang): string {
  return t(lang, spec.summary);
}

/** The command `text` (a line that starts with `/`) names in `channel`, if it offers one. */
export function commandOf(channel: DeskChannel, text: string): CommandSpec | undefined {
  const word = commandWord(text);
  return commandsOf(channel).find((c) => c.word === word || (c.aliases ?? []).includes(word));
}

/** The command word of `text`, lower case, without Telegram's `@bot` suffix. */
export function commandWord(text: string): string {
  return (text.trim().split(/\s+/, 1)[0] ?? "").replace(/@\w+$/, "").toLowerCase();
}

/**
 * Runs the slash command on `text` (a trimmed line that starts with `/`); a word the
 * channel does not offer gets the sentence that names it. A `@bot` suffix (Telegram
 * groups) is ignored.
 */
export async function runCommand(state: ConversationState, text: string): Promise<CommandOutcome> {
  const [, ...args] = text.trim().split(/\s+/);
  const spec = commandOf(state.channel, text);
  if (spec === undefined) {
    return { lines: [t(state.lang, "unknown_command", { command: commandWord(text) })] };
  }
  try {
    return await spec.run(state, args);
  } catch (error) {
    if (!(error instanceof LedgerError)) throw error;
    return { lines: [ledgerErrorSentence(state.lang, error)] };
  }
}

/** `{role, provider, model}` of `role` for the sentences that show it. */
export function describeRole(
  agent: Agent,
  role: string,
): { role: string; provider: string; model: string } {
  const target = agent.router.target(role);
  return { role, provider: target.provider, model: target.model_id };
}

function help(state: ConversationState): Promise<CommandOutcome> {
  const lines = [t(state.lang, "help_title")];
  for (const spec of commandsOf(state.channel)) {
    lines.push(t(state.lang, "help_line", {
      usage: spec.usage,
      summary: commandSummary(spec, state.lang),
    }));
  }
  return Promise.resolve({ lines: [lines.join("\n")] });
}

/**
 * `/jobs`: the scheduled jobs (next run, last outcome, spend today); `/jobs pause` and
 * `/jobs resume` stop and restart every job at once (or one, by name).
 */
async function jobs(state: ConversationState, args: string[]): Promise<CommandOutcome> {
  const scope = {
    paths: state.paths,
    config: state.config,
    lang: state.lang,
    nowMs: state.now(),
    env: state.env,
    resumeAll: "/jobs resume",
  };
  const [action, name] = args;
  if (action === undefined || action === "list") {
    const columns = state.columns?.();
    return { lines: [listLines(await listJobs(scope), state.lang, { columns }).join("\n")] };
  }
  if (action !== "pause" && action !== "resume") {
    return { lines: [t(state.lang, "jobs_usage")] };
  }
  try {
    const act = action === "pause" ? pauseJobs : resumeJobs;
    return { lines: [await act(scope, name)] };
  } catch (error) {
    if (error instanceof UserError) return { lines: [error.message] };
    throw error;
  }
}

function fresh(state: ConversationState): Promise<CommandOutcome> {
  state.sessionId = newSessionId(sessionKind(state.channel), state.now());
  return Promise.resolve({
    lines: [t(state.lang, "new_session", { session: state.sessionId })],
    sessionChanged: true,
  });
}

function model(state: ConversationState, args: string[]): Promise<CommandOutcome> {
  const { lang, agent } = state;
  const roles = state.config.models.roles;
  const arg = args.join(" ");
  if (arg === "") {
    const lines = [t(lang, "roles_title", { role: agent.role })];
    for (const r of Object.keys(roles)) {
      lines.push(t(lang, "role_line", {
        mark: r === agent.role ? "*" : " ",
        ...describeRole(agent, r),
      }));
    }
    return Promise.resolve({ lines });
  }
  if (!(arg in roles)) return Promise.resolve({ lines: [t(lang, "unknown_role", { role: arg })] });
  const gap = agent.router.missingCredentialSentence(arg);
  if (gap) return Promise.resolve({ lines: [gap] });
  agent.role = arg;
  return Promise.resolve({ lines: [t(lang, "role_now", describeRole(agent, arg))] });
}

async function resume(state: ConversationState, args: string[]): Promise<CommandOutcome> {
  const { lang, sessions, agent } = state;
  const arg = args.join(" ");
  if (arg === "") {
    const list = await sessions.listSessions(20);
    const lines = [t(lang, list.length === 0 ? "no_sessions" : "sessions_title")];
    const choices: CommandChoice[] = [];
    for (const s of list) {
      const time = formatTime(Date.parse(s.updated_at));
      const title = typeof s.meta.title === "string" ? s.meta.title : "";
      lines.push(t(lang, "session_line", {
        session: s.session_id,
        time,
        count: s.message_count,
        title,
      }));
      choices.push({
        label: `${time} · ${title === "" ? s.session_id : title}`,
        input: `/resume ${s.session_id}`,
      });
    }
    return choices.length === 0 ? { lines } : { lines, choices };
  }
  if (!isValidId(arg) || await sessions.getSession(arg) === undefined) {
    return { lines: [t(lang, "unknown_session", { session: arg })] };
  }
  state.sessionId = arg;
  // Without a fixed role, a resumed session brings back the role it remembers.
  const kept = (await sessions.getMeta(arg)).role;
  if (
    state.fixedRole === undefined && typeof kept === "string" &&
    kept in state.config.models.roles && agent.router.missingCredentialSentence(kept) === undefined
  ) agent.role = kept;
  const count = (await agent.history(arg)).length;
  return { lines: [t(lang, "session_now", { session: arg, count })], sessionChanged: true };
}

async function status(state: ConversationState): Promise<CommandOutcome> {
  const { lang, agent } = state;
  const count = (await state.sessions.listMessages(state.sessionId, MAIN_AGENT_ID))?.length ?? 0;
  const lines = [t(lang, "status", {
    session: state.sessionId,
    count,
    lang,
    profile: state.profile,
    ...describeRole(agent, agent.role),
  })];
  const now = state.now();
  const report = spendReport(state.config, state.ledger, now);
  lines.push(budgetLine(report, lang));
  const forecasts = forecastReport(report, now);
  if (Object.keys(forecasts).length > 0) lines.push(forecastLine(forecasts, lang));
  lines.push(...(state.statusLines?.() ?? []));
  return { lines };
}

async function settings(state: ConversationState, args: string[]): Promise<CommandOutcome> {
  const { lang, paths } = state;
  const [sub, name] = args;
  if (sub === "set" && name !== undefined) {
    if (!/^[A-Z][A-Z0-9_]*$/.test(name)) {
      return { lines: [t(lang, "settings_bad_name", { name })] };
    }
    // Piped input would take the next line (a message, `/quit`) as the key.
    if (state.secret === undefined) {
      return {
        lines: [
          t(lang, state.channel === "chat" ? "settings_no_terminal" : "settings_elsewhere", {
            name,
            file: paths.envFile,
          }),
        ],
      };
    }
    const value = await state.secret(t(lang, "settings_prompt", { name }));
    if (value === null || value.trim() === "") {
      return { lines: [t(lang, "settings_empty", { name })] };
    }
    await setEnvKey(paths.envFile, name, value.trim());
    state.env[name] = value.trim();
    // New credentials change what answers: decide the fallbacks again.
    state.agent = state.rebuild(state.agent.role);
    return { lines: [t(lang, "settings_saved", { name, file: paths.envFile })] };
  }
  const lines = [t(lang, "settings_title")];
  const inFile = Object.keys(await readEnvFile(paths.envFile));
  const targets = Object.values(state.config.models.roles)
    .flatMap((role) => [role, ...(role.fallback ? [role.fallback] : [])]);
  for (const name of new Set([...credentialNames(state.config), ...inFile])) {
    const known = credentialState(name, targets, state.env);
    lines.push(t(lang, "setting_line", { name, state: t(lang, `setting_${known}`) }));
  }
  const terminal = state.channel === "chat" || state.channel === "tui";
  lines.push(t(lang, terminal ? "settings_hint" : "settings_elsewhere", { file: paths.envFile }));
  return { lines };
}

/** The credential variables the configured roles (and their fallbacks) read. */
export function credentialNames(config: AgentConfig): string[] {
  const names = new Set<string>();
  for (const role of Object.values(config.models.roles)) {
    for (const target of [role, ...(role.fallback ? [role.fallback] : [])]) {
      if (target.params.api_key_env) names.add(target.params.api_key_env);
      else for (const name of CREDENTIAL_VARIABLES[target.provider]) names.add(name);
    }
  }
  return [...names];
}
