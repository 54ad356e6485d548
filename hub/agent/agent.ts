/**
 * The agent: one conversation turn from a message to a streamed answer, with the
 * persona and `## Now` block as the system prompt, the session's history, tools with
 * their tiers, and every model call through the {@linkcode ModelRouter} chain.
 * Chat, the TUI, the messenger and network turns all build one with
 * {@linkcode buildAgent}.
 *
 * @module
 */
import type { AgentConfig } from "../config/types.ts";
import { currentLang, type Lang } from "../i18n.ts";
import { Logger } from "../log.ts";
import { budgetLine, spendReport } from "../spend/mod.ts";
import { type Channel, type Ledger, LedgerError } from "../ledger/mod.ts";
import type { AgentPaths } from "../paths.ts";
import {
  buildSystemParts,
  localHostRole,
  type PersonaFiles,
  type SystemPromptParts,
} from "../persona/mod.ts";
import {
  openSessionStore,
  readStoredMessage,
  type SessionMessage,
  type SessionStore,
} from "../sessions/mod.ts";
import { type AgentTool, type BeforeToolCall, type ToolRefusal, toToolSet } from "../tools/mod.ts";
import { ModelRouter, type RouterEvent } from "../router/call.ts";
import { storedTurn } from "./keyed_turn.ts";
import { TurnStore } from "./turn_store.ts";
import { trimOldToolResults } from "./context_window.ts";
import { LAZY_SHARE, lazyTools } from "./lazy_tools.ts";
import { defaultContextTokens } from "../config/mod.ts";
import { SessionWindows, summaryPart } from "./session_window.ts";
import type { LoopApproval, LoopCut } from "../router/tool_loop.ts";
import { t } from "../router/_messages.ts";

/** The agent id a session's conversation is stored under. */
export const MAIN_AGENT_ID = "main";

/** What a network turn's `## Now` block says in place of private facts. */
const NOT_SHARED = "not shared with other agents";

/** What goes into the `## Now` block: the owner's channels, or a network turn's private context. */
export type NowSource = "owner" | "private";

/** Options for {@linkcode buildAgent}. */
export interface BuildAgentOptions {
  config: AgentConfig;
  /** The merged environment (`.env` and process). */
  env: Readonly<Record<string, string | undefined>>;
  paths: AgentPaths;
  /** Where the turns come from; written into each ledger row. */
  channel: Channel;
  /** The role that answers (chat's `--role`, `/model`). */
  role: string;
  tools: readonly AgentTool[];
  /** `persona.md` plus `user.md`, or the public note in place of `user.md`. */
  persona: PersonaFiles;
  /**
   * `owner` (default): time, profile, this machine's role and the budgets. `private`
   * (network turns): time; the profile and the host role read `not shared with other
   * agents`, budgets are left out.
   */
  context?: NowSource | undefined;
  /** @default the store `[sessions] backend` names (files under `paths.sessionsDir`) */
  sessions?: SessionStore | undefined;
  /** The spend ledger; without one budgets are not checked and nothing is recorded. */
  ledger?: Ledger | undefined;
  /** @default a Logger on `paths.logFile` */
  logger?: Logger | undefined;
  /** @default currentLang(env) */
  lang?: Lang | undefined;
  /** @default Date.now */
  now?: (() => number) | undefined;
  /** The fetch providers and tools use. */
  fetch?: typeof fetch | undefined;
  /** A router to share (its fallback decisions were made when it was built). */
  router?: ModelRouter | undefined;
  /** Tool-loop steps per turn at most. @default 8 */
  maxSteps?: number | undefined;
}

/** Options of one turn. */
export interface TurnOptions {
  /** Receives the answer's text as it streams. */
  onText?: ((text: string) => void) | undefined;
  /**
   * Told when a step's text is complete (its stream ended), before it is stored: a
   * channel shows the text whole at once (the messenger sends a short answer as one
   * message rather than waiting for the turn's end).
   */
  onTextEnd?: (() => void) | undefined;
  /** Receives each tool call the model makes (before its approval and run). */
  onToolCall?: ((toolName: string, input: unknown, toolCallId: string) => void) | undefined;
  /** Receives what each tool that ran returned. */
  onToolResult?: ((toolName: string, output: unknown, toolCallId: string) => void) | undefined;
  /**
   * Told of each tier-2 call that did not run, and why (refused by `beforeToolCall`,
   * no one to ask, or cut by a cancel before it ran), so a channel can say so:
   * `✗ write_note did not run: no one could approve it`. The model is told too.
   */
  onToolRefused?: ((refusal: ToolRefusal) => void) | undefined;
  /**
   * Asked before every tier-2 call, one at a time in call order; without it every
   * tier-2 call is refused (`no_one_to_ask`). A throw ends the turn with that error.
   */
  beforeToolCall?: BeforeToolCall | undefined;
  signal?: AbortSignal | undefined;
  /** The other agent's address (network turns), for the ledger. */
  peer?: string | undefined;
  /** Session meta written with the turn (e.g. a title), merged shallowly. */
  meta?: Record<string, unknown> | undefined;
  /**
   * Makes a turn stored at the end (a network turn) write its exchange once under this
   * key (the envelope id): run again after a crash, a turn that finds its whole exchange
   * stored returns that answer without calling the model, and one that finds only part
   * of it writes over that part instead of adding a second copy.
   */
  turnKey?: string | undefined;
  /** The session's spend ceiling (a job's run); see `CallContext.ceiling`. */
  ceiling?: { usd: number; sinceMs: number } | undefined;
}

/** What a turn produced. */
export interface TurnResult {
  /** The model's answer. */
  text: string;
  /** Notices the reply ends with (degraded, failed over). */
  notices: string[];
  /** The answer followed by its notices, as a channel shows it. */
  reply: string;
  /** The role that answered (a stand-in, when one did). */
  usedRole: string;
  /** Why the answer stopped short, when it did (a notice says so too). */
  cut?: LoopCut;
}

/** A built agent. */
export interface Agent {
  /** The role that answers; `/model` changes it. */
  role: string;
  readonly router: ModelRouter;
  readonly sessions: SessionStore;
  /**
   * One turn: `text` in, the answer out (streamed through `onText`). The owner's
   * message is stored before the model is called, and each step as it completes (the
   * assistant's message with its tool calls, then each result), so a cancel or a crash
   * keeps what ran; a network turn stores its whole exchange at the end, once. Throws
   * `TurnEndedError` (the user sentence), the signal's reason, or what
   * `beforeToolCall` threw (`ApprovalInterrupted`).
   */
  turn(sessionId: string, text: string, options?: TurnOptions): Promise<TurnResult>;
  /** The stored conversation of a session. */
  history(sessionId: string): Promise<SessionMessage[]>;
  /** The system prompt as the next turn would send it. */
  systemPrompt(): Promise<string>;
}

/** Builds an agent for one channel. */
export function buildAgent(options: BuildAgentOptions): Agent {
  const env = options.env;
  const lang = options.lang ?? currentLang(env);
  const now = options.now ?? Date.now;
  const logger = options.logger ?? new Logger({ file: options.paths.logFile });
  const sessions = options.sessions ??
    openSessionStore(options.config, options.env, options.paths);
  const router = options.router ?? new ModelRouter({
    config: options.config,
    env,
    ledger: options.ledger,
    logger,
    lang,
    now,
    fetch: options.fetch,
  });
  const source = options.context ?? "owner";
  const profile = env.AGENT_PROFILE?.trim() || "home";
  const maxSteps = options.maxSteps ?? 8;

  /**
   * A turn's tools: each run sees the turn's session (the shell's scratch folder, a paid
   * tool's ledger row); past {@linkcode LAZY_SHARE} of the role's `context_tokens` in
   * definitions, the MCP servers' tools wait behind `find_tools`.
   */
  function turnTools(role: string, sessionId: string) {
    if (options.tools.length === 0) return undefined;
    const all = toToolSet(options.tools, {
      context: {
        paths: options.paths,
        env,
        fetch: options.fetch,
        now,
        settings: options.config.tools,
        ledger: options.ledger,
        channel: options.channel,
        sessionId,
      },
    });
    const r = options.config.models.roles[role];
    const context = r?.context_tokens ?? defaultContextTokens(r?.provider ?? "");
    return lazyTools(all, Math.floor(context * LAZY_SHARE));
  }

  async function systemParts(): Promise<SystemPromptParts> {
    const nowMs = now();
    const budget = source === "owner" ? ownerBudgetLine(nowMs) : undefined;
    return await buildSystemParts(options.persona, {
      nowMs,
      // A network turn's prompt may end up quoted to the other agent: neither the
      // profile's name nor this machine's role leaves the hub.
      profile: source === "owner" ? profile : NOT_SHARED,
      hostRole: source === "owner" ? localHostRole(env) : NOT_SHARED,
      budgetLine: budget,
    });
  }

  async function systemPrompt(): Promise<string> {
    const parts = await systemParts();
    return `${parts.stable}\n\n${parts.now}`;
  }

  function ownerBudgetLine(nowMs: number): string {
    try {
      return budgetLine(spendReport(options.config, options.ledger, nowMs), lang);
    } catch (error) {
      // The model may still answer (the call chain reports the ledger itself); what
      // it cannot know is the budget.
      if (error instanceof LedgerError) return budgetLine({}, lang);
      throw error;
    }
  }

  const store = new TurnStore({ sessions, agentId: MAIN_AGENT_ID, channel: options.channel, now });
  const windows = new SessionWindows({
    sessions,
    agentId: MAIN_AGENT_ID,
    router,
    config: options.config,
    channel: options.channel,
    logger,
  });

  const agent: Agent = {
    role: options.role,
    router,
    sessions,
    systemPrompt,
    async history(sessionId) {
      // The whole conversation, folded turns too (what `/resume` shows).
      const all = await sessions.listMessages(sessionId, MAIN_AGENT_ID);
      return (all ?? []).flatMap((m) => readStoredMessage(m)?.message ?? []);
    },
    async turn(sessionId, text, turnOptions = {}) {
      const user: SessionMessage = { role: "user", content: text };
      const controller = new AbortController();
      const outer = turnOptions.signal;
      const onAbort = () => controller.abort(outer?.reason);
      if (outer?.aborted) onAbort();
      outer?.addEventListener("abort", onAbort, { once: true });
      const hook = turnOptions.beforeToolCall;
      const approve: LoopApproval = async (call) => {
        const tool = options.tools.find((x) => x.name === call.toolName);
        if (hook === undefined || tool === undefined) {
          return { allow: false, reason: "no_one_to_ask" };
        }
        try {
          return await hook({
            tool,
            input: call.input,
            toolCallId: call.toolCallId,
            signal: call.signal,
          });
        } catch (error) {
          // The hook's error ends the turn as it is (the call chain passes on the
          // turn's own reason for stopping untouched).
          controller.abort(error);
          throw error;
        }
      };
      const role = agent.role;
      const tools = turnTools(role, sessionId);
      // The owner's message is stored before the model is called, so a crash or a
      // failed call never loses what they wrote; an unanswered one joins the next
      // message. A network turn's message is kept in the network log instead, and its
      // frame already carries the history, so it is stored only with its answer.
      const early = source === "owner";
      let stored = await windows.read(sessionId);
      const again = storedTurn(stored.messages, early ? undefined : turnOptions.turnKey);
      if (again.answer !== undefined) {
        return { text: again.answer, notices: [], reply: again.answer, usedRole: role };
      }
      if (early) {
        await store.save(sessionId, stored.count, [user], role, turnOptions.meta);
        stored = await windows.read(sessionId);
      }
      // Where the next step of an owner's turn is written.
      let next = stored.count;
      let done: Extract<RouterEvent, { type: "done" }> | undefined;
      try {
        const incoming = early ? [] : [user];
        const fitted = await windows.fit(sessionId, stored, {
          leaveOut: again.parts,
          incoming,
          role,
          signal: controller.signal,
        });
        const parts = await systemParts();
        const stream = router.stream(role, {
          // The persona first, so it can be a prompt-cache prefix the `## Now` block
          // (new every minute and after every call) does not spoil; the summary of
          // folded turns between them.
          system: [parts.stable, ...summaryPart(fitted.fold, lang), parts.now],
          messages: trimOldToolResults(joinUserRuns([...fitted.messages, ...incoming])),
          tools,
          maxSteps,
          approve,
        }, {
          channel: options.channel,
          sessionId,
          peer: turnOptions.peer,
          signal: controller.signal,
          ...(turnOptions.ceiling === undefined ? {} : { ceiling: turnOptions.ceiling }),
        });
        for await (const event of stream) {
          switch (event.type) {
            case "text":
              turnOptions.onText?.(event.text);
              break;
            case "tool-call":
              turnOptions.onToolCall?.(event.toolName, event.input, event.toolCallId);
              break;
            case "tool-result":
              turnOptions.onToolResult?.(event.toolName, event.output, event.toolCallId);
              break;
            case "tool-refused":
              turnOptions.onToolRefused?.({
                toolName: event.toolName,
                toolCallId: event.toolCallId,
                reason: event.reason,
              });
              break;
            case "step":
              turnOptions.onTextEnd?.();
              // What completed is stored now: a cancel or a crash later keeps it.
              if (early) next = await store.write(sessionId, next, event.messages, role);
              break;
            case "done":
              turnOptions.onTextEnd?.();
              done = event;
              break;
          }
        }
      } finally {
        outer?.removeEventListener("abort", onAbort);
      }
      if (done === undefined) {
        throw controller.signal.reason ?? new Error("Turn ended without an answer");
      }
      if (!early) {
        const key = turnOptions.turnKey;
        const keyed = key === undefined ? undefined : { key, answer: done.text, over: again.parts };
        await store.save(
          sessionId,
          stored.count,
          [user, ...done.messages],
          role,
          turnOptions.meta,
          keyed,
        );
        // Parts written over are stale in the read cache.
        if (keyed !== undefined && keyed.over.length > 0) windows.forget(sessionId);
      }
      const notices = done.cut === undefined
        ? done.notices
        : [...done.notices, cutNotice(lang, done.cut, maxSteps)];
      const answer = done.text.replace(/\s+$/, "");
      const reply = notices.length === 0
        ? done.text
        : answer === ""
        ? notices.join("\n")
        : `${answer}\n\n${notices.join("\n")}`;
      return {
        text: done.text,
        notices,
        reply,
        usedRole: done.usedRole ?? role,
        ...(done.cut === undefined ? {} : { cut: done.cut }),
      };
    },
  };

  return agent;
}

/**
 * Joins consecutive user messages (an earlier message whose turn failed or crashed,
 * then the next one) into one, since some providers want user and assistant to take
 * turns.
 */
export function joinUserRuns(messages: readonly SessionMessage[]): SessionMessage[] {
  const out: SessionMessage[] = [];
  for (const message of messages) {
    const last = out[out.length - 1];
    if (message.role !== "user" || last?.role !== "user") {
      out.push(message);
      continue;
    }
    out[out.length - 1] = { role: "user", content: `${last.content}\n\n${message.content}` };
  }
  return out;
}

/** The notice of an answer cut short, in the owner's language. */
function cutNotice(lang: Lang, cut: LoopCut, steps: number): string {
  switch (cut) {
    case "steps":
      return t(lang, "cut_steps", { steps });
    case "length":
      return t(lang, "cut_length");
    case "content-filter":
      return t(lang, "cut_filter");
  }
}
