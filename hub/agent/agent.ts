/**
 * The agent: one conversation turn from a message to a streamed answer, with the
 * persona and `## Now` block as the system prompt, the session's history, tools with
 * their tiers, and every model call through the {@linkcode ModelRouter} chain.
 * Chat, the TUI, the messenger and network turns all build one with
 * {@linkcode buildAgent}.
 *
 * @module
 */
import { currentLang, type Lang } from "../i18n.ts";
import { Logger } from "../log.ts";
import { budgetLine, spendReport } from "../spend/mod.ts";
import { LedgerError } from "../ledger/mod.ts";
import { buildSystemParts, localHostRole, type SystemPromptParts } from "../persona/mod.ts";
import { openSessionStore, readStoredMessage, type SessionMessage } from "../sessions/mod.ts";
import { TurnContext } from "./turn_context.ts";
import { MEMORY_PARTY_META, MEMORY_SCOPE_META } from "./memory_meta.ts";
import { ModelRouter, type RouterEvent } from "../router/call.ts";
import type { Agent, BuildAgentOptions } from "./agent_types.ts";
import { storedTurn } from "./keyed_turn.ts";
import { TurnStore } from "./turn_store.ts";
import { trimOldToolResults } from "./context_window.ts";
import { LAZY_SHARE, lazyTools } from "./lazy_tools.ts";
import { defaultContextTokens } from "../config/mod.ts";
import { SessionWindows, summaryPart } from "./session_window.ts";
import type { LoopApproval, LoopCut } from "../router/tool_loop.ts";
import { t } from "../router/_messages.ts";

export type {
  Agent,
  BuildAgentOptions,
  NowSource,
  TurnOptions,
  TurnResult,
} from "./agent_types.ts";

/** The agent id a session's conversation is stored under. */
export const MAIN_AGENT_ID = "main";

/** What a network turn's `## Now` block says in place of private facts. */
const NOT_SHARED = "not shared with other agents";

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
  // A network turn's prompt may be quoted to the other agent: no memory reaches it.
  const memory = source === "owner" && options.memory?.settings.enabled === true
    ? options.memory
    : undefined;

  /**
   * What the MCP servers' definitions may take of the role's `context_tokens` before
   * they wait behind `find_tools` ({@linkcode LAZY_SHARE}).
   */
  function definitionBudget(role: string): number {
    const r = options.config.models.roles[role];
    const context = r?.context_tokens ?? defaultContextTokens(r?.provider ?? "");
    return Math.floor(context * LAZY_SHARE);
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
      const context = new TurnContext({
        tools: options.tools,
        memory,
        untrusted: turnOptions.untrusted === true,
        canAsk: hook !== undefined,
        toolContext: {
          paths: options.paths,
          env,
          fetch: options.fetch,
          now,
          settings: options.config.tools,
          ledger: options.ledger,
          channel: options.channel,
          sessionId,
        },
        offered: (all) => lazyTools(all, definitionBudget(agent.role)),
        logger,
        now,
      });
      const approve: LoopApproval = async (call) => {
        const tool = context.tools.find((x) => x.name === call.toolName);
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
        // A conversation with memory says whose it is, so the memory role reading it later
        // writes to the same scope.
        const meta = memory === undefined ? turnOptions.meta : {
          ...turnOptions.meta,
          [MEMORY_SCOPE_META]: memory.access.write,
          [MEMORY_PARTY_META]: memory.access.party,
        };
        await store.save(sessionId, stored.count, [user], role, meta);
        stored = await windows.read(sessionId);
      }
      // Where the next step of an owner's turn is written.
      let next = stored.count;
      let done: Extract<RouterEvent, { type: "done" }> | undefined;
      // What was read before (a page, a search) is still in the context.
      await context.readHistory(stored, () => sessions.getMeta(sessionId));
      const recalled = await context.recall(text);
      if (recalled !== undefined) {
        turnOptions.onRecalled?.({ ids: recalled.ids, tokens: recalled.tokens });
      }
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
          system: [
            parts.stable,
            ...summaryPart(fitted.fold, lang),
            ...(recalled?.block === undefined ? [] : [recalled.block]),
            parts.now,
          ],
          messages: trimOldToolResults(joinUserRuns([...fitted.messages, ...incoming])),
          tools: context.modelTools,
          maxSteps,
          approve,
        }, {
          channel: options.channel,
          sessionId,
          peer: turnOptions.peer,
          signal: controller.signal,
          ...(turnOptions.ceiling === undefined ? {} : { ceiling: turnOptions.ceiling }),
          ...(recalled === undefined || recalled.tokens === 0
            ? {}
            : { recallTokens: recalled.tokens }),
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
            case "tool-error":
              turnOptions.onToolError?.(event.toolName, event.error, event.toolCallId);
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
        // The next turns of this session have what this one read in their context too.
        if (early) await context.markSession(sessions, sessionId);
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
