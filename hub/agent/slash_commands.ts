/**
 * The slash commands of a conversation (`/model`, `/resume`, `/status`, `/settings`,
 * `/help`, `/quit`), one handler each, shared by every channel: a channel hands a
 * line that starts with `/` to {@linkcode runSlashCommand} with its
 * {@linkcode Conversation} and prints what comes back.
 *
 * @module
 */
import type { AgentConfig } from "../config/types.ts";
import { CREDENTIAL_VARIABLES } from "../credentials.ts";
import { readEnvFile, setEnvKey } from "../env_file.ts";
import { formatTime, type Lang } from "../i18n.ts";
import {
  budgetLine,
  forecastLine,
  forecastReport,
  type Ledger,
  LedgerError,
  ledgerErrorSentence,
  spendReport,
} from "../money/mod.ts";
import type { AgentPaths } from "../paths.ts";
import { isValidId, type SessionStore } from "../sessions/mod.ts";
import { t } from "./_messages.ts";
import { type Agent, MAIN_AGENT_ID } from "./agent.ts";

/** The state of one conversation that slash commands read and change. */
export interface Conversation {
  config: AgentConfig;
  /** The merged environment; `/settings set` adds to it. */
  env: Record<string, string>;
  paths: AgentPaths;
  lang: Lang;
  profile: string;
  sessions: SessionStore;
  ledger: Ledger;
  /** The agent that answers; `/model` changes its role. */
  agent: Agent;
  /** The session the conversation writes to; `/resume ID` changes it. */
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
  now(): number;
}

/** Chat's sentences another channel shows the same way (the TUI's tool line, a cancel). */
export function chatSentence(
  lang: Lang,
  key: "chat_cancelled" | "chat_tool_call",
  vars: Record<string, string> = {},
): string {
  return t(lang, key, vars);
}

/** What a slash command does: lines to show, and whether the conversation ends. */
export interface SlashResult {
  lines: string[];
  quit?: boolean;
}

/** One slash command: its handler over the words after it. */
export type SlashCommand = (chat: Conversation, args: string[]) => Promise<SlashResult>;

/** Every slash command by its word (`/exit` is `/quit`). */
export const SLASH_COMMANDS: Readonly<Record<string, SlashCommand>> = {
  "/quit": quit,
  "/exit": quit,
  "/help": (chat) => Promise.resolve({ lines: [t(chat.lang, "chat_help")] }),
  "/model": model,
  "/resume": resume,
  "/status": status,
  "/settings": settings,
};

/**
 * Runs the slash command on `text` (a trimmed line that starts with `/`); an unknown
 * word gets the sentence that names it.
 */
export function runSlashCommand(chat: Conversation, text: string): Promise<SlashResult> {
  const [word = "", ...args] = text.split(/\s+/);
  const command = SLASH_COMMANDS[word];
  if (command === undefined) {
    return Promise.resolve({ lines: [t(chat.lang, "chat_unknown_command", { command: word })] });
  }
  return command(chat, args);
}

/** `{role, provider, model}` of `role` for the sentences that show it. */
export function describeRole(
  agent: Agent,
  role: string,
): { role: string; provider: string; model: string } {
  const target = agent.router.target(role);
  return { role, provider: target.provider, model: target.model_id };
}

function quit(): Promise<SlashResult> {
  return Promise.resolve({ lines: [], quit: true });
}

function model(chat: Conversation, args: string[]): Promise<SlashResult> {
  const { lang, agent } = chat;
  const roles = chat.config.models.roles;
  const arg = args.join(" ");
  if (arg === "") {
    const lines = [t(lang, "chat_roles_title", { role: agent.role })];
    for (const r of Object.keys(roles)) {
      lines.push(t(lang, "chat_role_line", {
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
  return Promise.resolve({ lines: [t(lang, "chat_role_now", describeRole(agent, arg))] });
}

async function resume(chat: Conversation, args: string[]): Promise<SlashResult> {
  const { lang, sessions, agent } = chat;
  const arg = args.join(" ");
  if (arg === "") {
    const list = await sessions.listSessions(20);
    const lines = [t(lang, list.length === 0 ? "chat_no_sessions" : "chat_sessions_title")];
    for (const s of list) {
      lines.push(t(lang, "chat_session_line", {
        session: s.session_id,
        time: formatTime(Date.parse(s.updated_at)),
        count: s.message_count,
        title: typeof s.meta.title === "string" ? s.meta.title : "",
      }));
    }
    return { lines };
  }
  if (!isValidId(arg) || await sessions.getSession(arg) === undefined) {
    return { lines: [t(lang, "chat_unknown_session", { session: arg })] };
  }
  chat.sessionId = arg;
  // Without a fixed role, a resumed session brings back the role it remembers.
  const kept = (await sessions.getMeta(arg)).role;
  if (
    chat.fixedRole === undefined && typeof kept === "string" &&
    kept in chat.config.models.roles && agent.router.missingCredentialSentence(kept) === undefined
  ) agent.role = kept;
  const count = (await agent.history(arg)).length;
  return { lines: [t(lang, "chat_session_now", { session: arg, count })] };
}

async function status(chat: Conversation): Promise<SlashResult> {
  const { lang, agent } = chat;
  const count = (await chat.sessions.listMessages(chat.sessionId, MAIN_AGENT_ID))?.length ?? 0;
  const lines = [t(lang, "chat_status", {
    session: chat.sessionId,
    count,
    lang,
    profile: chat.profile,
    ...describeRole(agent, agent.role),
  })];
  try {
    const now = chat.now();
    const report = spendReport(chat.config, chat.ledger, now);
    lines.push(budgetLine(report, lang));
    const forecasts = forecastReport(report, now);
    if (Object.keys(forecasts).length > 0) lines.push(forecastLine(forecasts, lang));
  } catch (error) {
    if (!(error instanceof LedgerError)) throw error;
    lines.push(ledgerErrorSentence(lang, error));
  }
  return { lines };
}

async function settings(chat: Conversation, args: string[]): Promise<SlashResult> {
  const { lang, paths } = chat;
  const [sub, name] = args;
  if (sub === "set" && name !== undefined) {
    if (!/^[A-Z][A-Z0-9_]*$/.test(name)) {
      return { lines: [t(lang, "chat_settings_bad_name", { name })] };
    }
    // Piped input would take the next line (a message, `/quit`) as the key.
    if (chat.secret === undefined) {
      return { lines: [t(lang, "chat_settings_no_terminal", { name, file: paths.envFile })] };
    }
    const value = await chat.secret(t(lang, "chat_settings_prompt", { name }));
    if (value === null || value.trim() === "") {
      return { lines: [t(lang, "chat_settings_empty", { name })] };
    }
    await setEnvKey(paths.envFile, name, value.trim());
    chat.env[name] = value.trim();
    // New credentials change what answers: decide the fallbacks again.
    chat.agent = chat.rebuild(chat.agent.role);
    return { lines: [t(lang, "chat_settings_saved", { name, file: paths.envFile })] };
  }
  const lines = [t(lang, "chat_settings_title")];
  const inFile = Object.keys(await readEnvFile(paths.envFile));
  for (const name of new Set([...credentialNames(chat.config), ...inFile])) {
    const set = (chat.env[name] ?? "").trim() !== "";
    lines.push(t(lang, "chat_setting_line", {
      name,
      state: t(lang, set ? "chat_setting_set" : "chat_setting_missing"),
    }));
  }
  lines.push(t(lang, "chat_settings_hint", { file: paths.envFile }));
  return { lines };
}

function credentialNames(config: AgentConfig): string[] {
  const names = new Set<string>();
  for (const role of Object.values(config.models.roles)) {
    for (const target of [role, ...(role.fallback ? [role.fallback] : [])]) {
      if (target.params.api_key_env) names.add(target.params.api_key_env);
      else for (const name of CREDENTIAL_VARIABLES[target.provider]) names.add(name);
    }
  }
  return [...names];
}
