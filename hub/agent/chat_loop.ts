/**
 * `agent chat`: the terminal conversation. Everything that can stop it (invalid role,
 * unknown session, a missing key) is checked before anything opens, and ends with one
 * sentence and exit 2. Answers stream as they arrive. From a pipe it reads one
 * message per line, prints each answer and exits 0 at the end of input.
 *
 * @module
 */
import type { AgentConfig } from "../config/types.ts";
import { readEnvFile, setEnvKey } from "../env_file.ts";
import { formatTime, type Lang } from "../i18n.ts";
import type { Logger } from "../log.ts";
import {
  budgetLine,
  type Ledger,
  LedgerError,
  ledgerErrorSentence,
  spendReport,
} from "../money/mod.ts";
import type { AgentPaths } from "../paths.ts";
import { FileSessionStore, isValidId, type SessionStore } from "../sessions/mod.ts";
import { type AgentTool, ApprovalInterrupted, type Approver } from "../tools/mod.ts";
import { CREDENTIAL_VARIABLES } from "../credentials.ts";
import { t } from "./_messages.ts";
import { type Agent, buildAgent, MAIN_AGENT_ID } from "./agent.ts";
import { ModelRouter } from "./call.ts";
import type { ChatInput } from "./chat_input.ts";
import { TurnEndedError } from "./errors.ts";

/** Options for {@linkcode runChat}. */
export interface ChatOptions {
  config: AgentConfig;
  /** The merged environment; `/settings set` adds to it. */
  env: Record<string, string>;
  paths: AgentPaths;
  lang: Lang;
  profile: string;
  logger: Logger;
  input: ChatInput;
  /** Writes text as is (answers stream through it). */
  write(text: string): void;
  /** Writes one line to stderr. */
  writeErr(line: string): void;
  /** `--role`. */
  role?: string | undefined;
  /** `--resume [ID]`: `true` when bare. */
  resume?: string | true | undefined;
  /** `--session ID`. */
  session?: string | undefined;
  /** Opens the spend ledger (after every check passed). */
  openLedger(): Ledger;
  /**
   * The tools chat offers: the registry's enabled `agent.tools`, so installed ones
   * (`net_send`) reach the model. Loaded after every check passed.
   */
  tools(): Promise<AgentTool[]>;
  /** @default a FileSessionStore under `paths.sessionsDir` */
  sessions?: SessionStore | undefined;
  /** @default Date.now */
  now?: (() => number) | undefined;
}

/** Runs chat to the end; returns the exit code (0; 1 when the ledger cannot be opened; 2; 130). */
export async function runChat(options: ChatOptions): Promise<number> {
  const lang = options.lang;
  const now = options.now ?? Date.now;
  const sessions = options.sessions ?? new FileSessionStore(options.paths.sessionsDir);
  const roles = options.config.models.roles;

  // --- checks before anything opens -------------------------------------------------
  let sessionId: string;
  let resumed = false;
  let notice: string | undefined;
  const explicit = options.session ??
    (typeof options.resume === "string" ? options.resume : undefined);
  if (explicit !== undefined) {
    if (!isValidId(explicit)) {
      return fail(options, t(lang, "chat_invalid_session", { session: explicit }));
    }
    const known = await sessions.getSession(explicit) !== undefined;
    if (!known && options.session === undefined) {
      return fail(options, t(lang, "chat_unknown_session", { session: explicit }));
    }
    sessionId = explicit;
    resumed = known;
  } else if (options.resume === true) {
    const latest = (await sessions.listSessions(200)).find((s) => s.message_count > 0);
    if (latest) {
      sessionId = latest.session_id;
      resumed = true;
    } else {
      sessionId = newSessionId(now());
      notice = t(lang, "chat_no_resume", { session: sessionId });
    }
  } else sessionId = newSessionId(now());

  const remembered = resumed ? (await sessions.getMeta(sessionId)).role : undefined;
  const role = options.role ??
    (typeof remembered === "string" && remembered in roles ? remembered : "brain");
  if (!(role in roles)) return fail(options, t(lang, "unknown_role", { role }));
  let router = new ModelRouter({
    config: options.config,
    env: options.env,
    logger: options.logger,
    lang,
  });
  const missing = router.missingCredentialSentence(role);
  // The Errors table's line, the same one `agent doctor` prints for this role.
  if (missing !== undefined) return fail(options, `fail ${missing}`);

  // --- open ---------------------------------------------------------------------------
  let ledger: Ledger;
  try {
    ledger = options.openLedger();
  } catch (error) {
    if (!(error instanceof LedgerError)) throw error;
    options.writeErr(ledgerErrorSentence(lang, error));
    return 1;
  }
  const input = options.input;
  const tools = await options.tools();
  const approver: Approver = {
    approve(tool, args) {
      return input.confirm(t(lang, "chat_approve", { tool, args: short(JSON.stringify(args)) }));
    },
  };
  const make = (r: string): Agent => {
    router = new ModelRouter({
      config: options.config,
      env: options.env,
      ledger,
      logger: options.logger,
      lang,
      now,
    });
    return buildAgent({
      config: options.config,
      env: options.env,
      paths: options.paths,
      channel: "chat",
      role: r,
      tools,
      approver,
      persona: {
        personaFile: `${options.paths.personaDir}/persona.md`,
        userFile: `${options.paths.personaDir}/user.md`,
      },
      sessions,
      ledger,
      logger: options.logger,
      lang,
      now,
      router,
    });
  };
  let agent = make(role);
  const line = (text: string) => options.write(`${text}\n`);
  const describeRole = (r: string) => ({
    role: r,
    provider: agent.router.target(r).provider,
    model: agent.router.target(r).model_id,
  });

  try {
    if (input.interactive) {
      line(t(lang, "chat_header", { session: sessionId, ...describeRole(role) }));
      if (resumed) {
        line(
          t(lang, "chat_resumed", {
            session: sessionId,
            count: (await agent.history(sessionId)).length,
          }),
        );
      }
    }
    if (notice && input.interactive) line(notice);
    for (;;) {
      const text = await input.readLine(input.interactive ? "› " : "");
      if (text === null) return 0;
      const trimmed = text.trim();
      if (trimmed === "") continue;
      if (trimmed.startsWith("/")) {
        const [command = "", ...rest] = trimmed.split(/\s+/);
        const arg = rest.join(" ");
        switch (command) {
          case "/quit":
          case "/exit":
            return 0;
          case "/help":
            line(t(lang, "chat_help"));
            continue;
          case "/model": {
            if (arg === "") {
              line(t(lang, "chat_roles_title", { role: agent.role }));
              for (const r of Object.keys(roles)) {
                line(
                  t(lang, "chat_role_line", {
                    mark: r === agent.role ? "*" : " ",
                    ...describeRole(r),
                  }),
                );
              }
            } else if (!(arg in roles)) line(t(lang, "unknown_role", { role: arg }));
            else {
              const gap = agent.router.missingCredentialSentence(arg);
              if (gap) line(gap);
              else {
                agent.role = arg;
                line(t(lang, "chat_role_now", describeRole(arg)));
              }
            }
            continue;
          }
          case "/resume": {
            if (arg === "") {
              const list = await sessions.listSessions(20);
              if (list.length === 0) line(t(lang, "chat_no_sessions"));
              else line(t(lang, "chat_sessions_title"));
              for (const s of list) {
                line(t(lang, "chat_session_line", {
                  session: s.session_id,
                  time: formatTime(Date.parse(s.updated_at)),
                  count: s.message_count,
                  title: typeof s.meta.title === "string" ? s.meta.title : "",
                }));
              }
            } else if (!isValidId(arg) || await sessions.getSession(arg) === undefined) {
              line(t(lang, "chat_unknown_session", { session: arg }));
            } else {
              sessionId = arg;
              // Without --role, a resumed session brings back the role it remembers.
              const kept = (await sessions.getMeta(arg)).role;
              if (
                options.role === undefined && typeof kept === "string" && kept in roles &&
                agent.router.missingCredentialSentence(kept) === undefined
              ) agent.role = kept;
              line(
                t(lang, "chat_session_now", {
                  session: arg,
                  count: (await agent.history(arg)).length,
                }),
              );
            }
            continue;
          }
          case "/status": {
            const count = (await sessions.listMessages(sessionId, MAIN_AGENT_ID))?.length ?? 0;
            line(t(lang, "chat_status", {
              session: sessionId,
              count,
              lang,
              profile: options.profile,
              ...describeRole(agent.role),
            }));
            try {
              line(budgetLine(spendReport(options.config, ledger, now()), lang));
            } catch (error) {
              if (!(error instanceof LedgerError)) throw error;
              line(ledgerErrorSentence(lang, error));
            }
            continue;
          }
          case "/settings": {
            const [sub, name] = rest;
            if (sub === "set" && name !== undefined) {
              if (!/^[A-Z][A-Z0-9_]*$/.test(name)) {
                line(t(lang, "chat_settings_bad_name", { name }));
                continue;
              }
              const value = await input.secret(t(lang, "chat_settings_prompt", { name }));
              if (value === null || value.trim() === "") {
                line(t(lang, "chat_settings_empty", { name }));
                continue;
              }
              await setEnvKey(options.paths.envFile, name, value.trim());
              options.env[name] = value.trim();
              // New credentials change what answers: decide the fallbacks again.
              const current = agent.role;
              agent = make(current);
              line(t(lang, "chat_settings_saved", { name, file: options.paths.envFile }));
              continue;
            }
            line(t(lang, "chat_settings_title"));
            const inFile = Object.keys(await readEnvFile(options.paths.envFile));
            for (const name of new Set([...credentialNames(options.config), ...inFile])) {
              const set = (options.env[name] ?? "").trim() !== "";
              line(t(lang, "chat_setting_line", {
                name,
                state: t(lang, set ? "chat_setting_set" : "chat_setting_missing"),
              }));
            }
            line(t(lang, "chat_settings_hint", { file: options.paths.envFile }));
            continue;
          }
          default:
            line(t(lang, "chat_unknown_command", { command }));
            continue;
        }
      }
      await oneTurn(agent, sessionId, text, options);
    }
  } catch (error) {
    if (error instanceof ApprovalInterrupted) {
      options.write("\n");
      return 130;
    }
    throw error;
  } finally {
    input.close();
    ledger.close();
  }
}

async function oneTurn(agent: Agent, sessionId: string, text: string, options: ChatOptions) {
  const controller = new AbortController();
  const stop = options.input.onInterrupt(() => controller.abort());
  let wrote = false;
  try {
    const result = await agent.turn(sessionId, text, {
      signal: controller.signal,
      onText(chunk) {
        if (!wrote) chunk = chunk.replace(/^\s+/, "");
        if (chunk === "") return;
        wrote = true;
        options.write(chunk);
      },
      // A person sees which tool runs; a script reading one answer per line does not.
      onToolCall: options.input.interactive
        ? (tool) => {
          options.write(`${wrote ? "\n" : ""}${t(options.lang, "chat_tool_call", { tool })}\n`);
          wrote = false;
        }
        : undefined,
    });
    const end = result.notices.length > 0
      ? `${wrote ? "\n\n" : ""}${result.notices.join("\n")}\n`
      : "\n";
    options.write(end);
  } catch (error) {
    if (error instanceof TurnEndedError) {
      options.write(`${wrote ? "\n" : ""}${error.sentence}\n`);
    } else if (controller.signal.aborted && !(error instanceof ApprovalInterrupted)) {
      options.write(`${wrote ? "\n" : ""}${t(options.lang, "chat_cancelled")}\n`);
    } else throw error;
  } finally {
    stop();
  }
  if (options.input.interactive) options.write("\n");
}

function fail(options: ChatOptions, sentence: string): number {
  options.writeErr(sentence);
  return 2;
}

/** A fresh session id: `chat-YYYYMMDD-HHMMSS-xxxx` (UTC). */
export function newSessionId(nowMs: number): string {
  const iso = new Date(nowMs).toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `chat-${iso}-${crypto.randomUUID().slice(0, 4)}`;
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

function short(text: string): string {
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
