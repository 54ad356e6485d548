/**
 * The slash commands of every conversation, in one table: the desk's own (`/start`,
 * `/new`, `/stop`, `/resume [ID]`, `/model [ROLE]`, `/help`, `/quit`) and the plug-ins
 * the app registers (`/status`, `/settings`, `/jobs`: `hub/app/desk_commands.ts`), which
 * `/help` lists between `/model` and `/help`. `/help` and the messenger's command menu
 * are made from the same table, so no channel has commands or sentences of its own.
 *
 * A command reads the conversation through a {@linkcode CommandContext} and changes
 * nothing: it returns its lines and the {@linkcode CommandEffect}s it asks for (another
 * session, another role, a saved key, stop, quit), which only the conversation applies.
 *
 * @module
 */
import type { AgentConfig } from "../config/types.ts";
import { hasRole } from "../config/roles.ts";
import { CREDENTIAL_VARIABLES } from "../credentials.ts";
import type { Lang } from "../i18n.ts";
import { type Ledger, LedgerError } from "../ledger/mod.ts";
import { ledgerErrorSentence } from "../spend/mod.ts";
import type { AgentPaths } from "../paths.ts";
import type { TurnMemory } from "../memory/mod.ts";
import { isValidId, newSessionId, type SessionStore } from "../sessions/mod.ts";
import { t } from "./_messages.ts";
import { type DeskChannel, sessionKind } from "./keys.ts";
import { type Choice, listSessions, type RoleTarget } from "./choices.ts";

/**
 * What a slash command reads: the conversation as it is now, and the desk's parts it may
 * consult. Nothing here changes the conversation; a command asks for that with effects.
 */
export interface CommandContext {
  /** Where the conversation happens. */
  readonly channel: DeskChannel;
  readonly lang: Lang;
  readonly config: AgentConfig;
  /** The merged environment (a saved key is added by the conversation, not here). */
  readonly env: Readonly<Record<string, string>>;
  readonly paths: AgentPaths;
  /** The profile `/status` names. */
  readonly profile: string;
  readonly sessions: SessionStore;
  readonly ledger: Ledger | undefined;
  /** The session the conversation writes to. */
  readonly sessionId: string;
  /** The role that answers. */
  readonly role: string;
  /** The role fixed by the channel (`--role`), which `/resume` then keeps. */
  readonly fixedRole: string | undefined;
  /** Whether an answer is being written now (`/stop` has something to stop). */
  readonly running: boolean;
  /** Where `role` goes (its provider and model). */
  target(role: string): RoleTarget;
  /** The sentence for `role`'s missing credential, if it cannot answer. */
  missingCredential(role: string): string | undefined;
  /** How many messages the session `sessionId` holds. */
  messageCount(sessionId: string): Promise<number>;
  /** The commands this conversation offers, in `/help` order. */
  commands(): readonly CommandSpec[];
  /**
   * Asks for a secret without echoing it; `null` when none was given. Absent where no
   * secret can be asked (no terminal, the messenger): `/settings set` then refuses.
   */
  secret?: ((prompt: string) => Promise<string | null>) | undefined;
  /**
   * How many columns the channel shows a line in, where it knows (a terminal): `/jobs`
   * fits its table to them. Absent: 80.
   */
  columns?: (() => number) | undefined;
  /**
   * The conversation's memory (its store and the scopes the desk gave it), absent where
   * there is none: `/memory`, `/remember` and `/forget` work within it.
   */
  memory?: TurnMemory | undefined;
  now(): number;
}

/** A change a command asks for; only the conversation applies it. */
export type CommandEffect =
  /** Move to `sessionId` (`/new`, `/resume`), with `role` when the session brings its own. */
  | { type: "session"; sessionId: string; role?: string | undefined }
  /** Answer with `role` from now on (`/model`). */
  | { type: "role"; role: string }
  /** A credential was saved (`/settings set`): added to the environment, the agent rebuilt. */
  | { type: "env"; name: string; value: string }
  /** End the answer being written (`/stop`). */
  | { type: "stop" }
  /** The conversation ends (`/quit`). */
  | { type: "quit" };

/** One pick a command offers: a short label and the line that picks it. */
export interface CommandChoice {
  label: string;
  /** The line submitted when it is picked (`/resume <id>`). */
  input: string;
}

/** What a slash command returns. */
export interface CommandReturn {
  lines: string[];
  /** What the conversation changes afterwards, in order. */
  effects?: CommandEffect[];
  /** What a person may pick next (`/resume`'s sessions), for channels with buttons. */
  choices?: CommandChoice[];
}

/** What a slash command did, as the sender is told. */
export interface CommandOutcome {
  lines: string[];
  /** The conversation ends (`/quit`). */
  quit?: boolean;
  /** The conversation moved to another session. */
  sessionChanged?: boolean;
  /** What a person may pick next (`/resume`'s sessions), for channels with buttons. */
  choices?: CommandChoice[];
}

/** One slash command: the desk's own, or a plug-in the app registers. */
export interface CommandSpec {
  /** `/model`. */
  word: string;
  aliases?: readonly string[];
  /** `/model [ROLE]`. */
  usage: string;
  /** Its one-line summary in `lang`. */
  summary(lang: Lang): string;
  /** The channels that offer it. @default every channel */
  channels?: readonly DeskChannel[];
  /** Handled at once, also while an answer runs, instead of waiting its turn. */
  immediate?: boolean;
  run(context: CommandContext, args: string[]): Promise<CommandReturn>;
  /**
   * The picker it offers (`settings`): `choices(kind)` of a conversation lists what
   * `list` returns.
   */
  choices?: { kind: string; list(context: CommandContext): Promise<Choice[]> };
}

const start: CommandSpec = {
  word: "/start",
  usage: "/start",
  summary: (lang) => t(lang, "cmd_start"),
  channels: ["messenger"],
  run: (ctx) => Promise.resolve({ lines: [t(ctx.lang, "start")] }),
};

const fresh: CommandSpec = {
  word: "/new",
  usage: "/new",
  summary: (lang) => t(lang, "cmd_new"),
  run(ctx) {
    const sessionId = newSessionId(sessionKind(ctx.channel), ctx.now());
    return Promise.resolve({
      lines: [t(ctx.lang, "new_session", { session: sessionId })],
      effects: [{ type: "session", sessionId }],
    });
  },
};

const stop: CommandSpec = {
  word: "/stop",
  aliases: ["/cancel"],
  usage: "/stop",
  summary: (lang) => t(lang, "cmd_stop"),
  immediate: true,
  run: (ctx) =>
    Promise.resolve(
      ctx.running ? { lines: [], effects: [{ type: "stop" }] } : {
        lines: [t(ctx.lang, "stop_none")],
      },
    ),
};

const resume: CommandSpec = {
  word: "/resume",
  usage: "/resume [ID]",
  summary: (lang) => t(lang, "cmd_resume"),
  async run(ctx, args) {
    const { lang, sessions } = ctx;
    const arg = args.join(" ");
    if (arg === "") {
      const list = await listSessions(sessions, { lang });
      const lines = [t(lang, list.length === 0 ? "no_sessions" : "sessions_title")];
      for (const s of list) {
        lines.push(t(lang, "session_line", {
          session: s.value,
          time: s.time,
          count: s.count,
          title: s.title,
        }));
      }
      const choices = list.map((s) => ({ label: s.label, input: `/resume ${s.value}` }));
      return choices.length === 0 ? { lines } : { lines, choices };
    }
    if (!isValidId(arg) || await sessions.getSession(arg) === undefined) {
      return { lines: [t(lang, "unknown_session", { session: arg })] };
    }
    // Without a fixed role, a resumed session brings back the role it remembers.
    const kept = (await sessions.getMeta(arg)).role;
    const role = ctx.fixedRole === undefined && typeof kept === "string" &&
        hasRole(ctx.config, kept) && ctx.missingCredential(kept) === undefined
      ? kept
      : undefined;
    const count = await ctx.messageCount(arg);
    return {
      lines: [t(lang, "session_now", { session: arg, count })],
      effects: [{ type: "session", sessionId: arg, role }],
    };
  },
};

const model: CommandSpec = {
  word: "/model",
  usage: "/model [ROLE]",
  summary: (lang) => t(lang, "cmd_model"),
  run(ctx, args) {
    const { lang } = ctx;
    const roles = ctx.config.models.roles;
    const arg = args.join(" ");
    if (arg === "") {
      const lines = [t(lang, "roles_title", { role: ctx.role })];
      for (const r of Object.keys(roles)) {
        lines.push(t(lang, "role_line", {
          mark: r === ctx.role ? "*" : " ",
          role: r,
          ...ctx.target(r),
        }));
      }
      return Promise.resolve({ lines });
    }
    if (!hasRole(ctx.config, arg)) {
      return Promise.resolve({ lines: [t(lang, "unknown_role", { role: arg })] });
    }
    const gap = ctx.missingCredential(arg);
    if (gap) return Promise.resolve({ lines: [gap] });
    return Promise.resolve({
      lines: [t(lang, "role_now", { role: arg, ...ctx.target(arg) })],
      effects: [{ type: "role", role: arg }],
    });
  },
};

const help: CommandSpec = {
  word: "/help",
  usage: "/help",
  summary: (lang) => t(lang, "cmd_help"),
  run(ctx) {
    const lines = [t(ctx.lang, "help_title")];
    for (const spec of ctx.commands()) {
      lines.push(t(ctx.lang, "help_line", { usage: spec.usage, summary: spec.summary(ctx.lang) }));
    }
    return Promise.resolve({ lines: [lines.join("\n")] });
  },
};

const quit: CommandSpec = {
  word: "/quit",
  aliases: ["/exit"],
  usage: "/quit",
  summary: (lang) => t(lang, "cmd_quit"),
  channels: ["chat", "tui"],
  run: () => Promise.resolve({ lines: [], effects: [{ type: "quit" }] }),
};

/** The desk's own commands before the plug-ins, and after them. */
const BEFORE: readonly CommandSpec[] = [start, fresh, stop, resume, model];
const AFTER: readonly CommandSpec[] = [help, quit];

/**
 * Every command with `plugins` (the app's), in `/help` order: the desk's own first, the
 * plug-ins before `/help` and `/quit`. A plug-in cannot take a word the desk has.
 *
 * @throws {TypeError} a plug-in whose word or alias is taken.
 */
export function commandTable(plugins: readonly CommandSpec[] = []): CommandSpec[] {
  const words = new Set<string>();
  const table = [...BEFORE, ...plugins, ...AFTER];
  for (const spec of table) {
    for (const word of [spec.word, ...(spec.aliases ?? [])]) {
      if (words.has(word)) throw new TypeError(`Cannot register ${word}: the word is taken`);
      words.add(word);
    }
  }
  return table;
}

/** The commands of `table` that `channel` offers, in `/help` order. */
export function commandsOf(
  channel: DeskChannel,
  table: readonly CommandSpec[] = commandTable(),
): CommandSpec[] {
  return table.filter((c) => c.channels === undefined || c.channels.includes(channel));
}

/** A command's summary in `lang`. */
export function commandSummary(spec: CommandSpec, lang: Lang): string {
  return spec.summary(lang);
}

/** The command of `commands` that `text` (a line that starts with `/`) names, if any. */
export function commandOf(
  commands: readonly CommandSpec[],
  text: string,
): CommandSpec | undefined {
  const word = commandWord(text);
  return commands.find((c) => c.word === word || (c.aliases ?? []).includes(word));
}

/** The command word of `text`, lower case, without Telegram's `@bot` suffix. */
export function commandWord(text: string): string {
  return (text.trim().split(/\s+/, 1)[0] ?? "").replace(/@\w+$/, "").toLowerCase();
}

/**
 * Runs the slash command on `text` (a trimmed line that starts with `/`) against the
 * context's commands; a word the channel does not offer gets the sentence that names it.
 * A `@bot` suffix (Telegram groups) is ignored.
 */
export async function runCommand(ctx: CommandContext, text: string): Promise<CommandReturn> {
  const [, ...args] = text.trim().split(/\s+/);
  const spec = commandOf(ctx.commands(), text);
  if (spec === undefined) {
    return { lines: [t(ctx.lang, "unknown_command", { command: commandWord(text) })] };
  }
  try {
    return await spec.run(ctx, args);
  } catch (error) {
    if (!(error instanceof LedgerError)) throw error;
    return { lines: [ledgerErrorSentence(ctx.lang, error)] };
  }
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
