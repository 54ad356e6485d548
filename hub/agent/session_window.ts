/**
 * What of a session a turn sends, kept per session between turns: the fold (the summary
 * of the oldest turns and where it ends, from `context_window.ts`) and the stored
 * messages after it. A turn reads only what was added since (by this process or another
 * one), and folded messages leave memory, so a chat of months costs a hub no more
 * memory than one of a day.
 *
 * @module
 */
import { defaultContextTokens } from "../config/defaults.ts";
import type { AgentConfig } from "../config/types.ts";
import type { Lang } from "../i18n.ts";
import type { Logger } from "../log.ts";
import type { Channel } from "../ledger/mod.ts";
import {
  readStoredMessage,
  type SessionMessage,
  type SessionStore,
  type StoredMessage,
} from "../sessions/mod.ts";
import { errorMessage } from "@agent/net/common";
import type { ModelRouter } from "../router/call.ts";
import { summarise, transcriptBudget } from "./compaction.ts";
import { type Fold, foldOf, messageTokens, nextFoldStart, textTokens } from "./context_window.ts";

export type { StoredMessage };

/** A session as the next turn sends it: the fold and the stored messages after it. */
export interface SessionWindow {
  /** Messages stored (folded ones too): the next message's position. */
  count: number;
  fold: Fold | undefined;
  /** The stored messages from `fold.upto` on. */
  messages: StoredMessage[];
}

/** What {@linkcode SessionWindows.fit} needs besides the window. */
export interface FitOptions {
  /** Stored messages the request leaves out (the parts of a keyed turn run again). */
  leaveOut: readonly StoredMessage[];
  /** What the request adds that is not stored yet. */
  incoming: readonly SessionMessage[];
  /** The role that answers (its `context_tokens` is the budget). */
  role: string;
  signal: AbortSignal;
}

/** A role's context budget in tokens: its `context_tokens`, else the provider's default. */
export function contextBudget(config: AgentConfig, role: string): number {
  const r = config.models.roles[role];
  return r?.context_tokens ?? defaultContextTokens(r?.provider ?? "");
}

/** The heading of the summary's system part. */
const SUMMARY_HEADING = { en: "## Earlier in this conversation", tr: "## Bu konuşmada daha önce" };

/** The system part that carries the summary of folded turns (none before the first). */
export function summaryPart(fold: Fold | undefined, lang: Lang): string[] {
  if (fold === undefined || fold.summary.trim() === "") return [];
  return [`${SUMMARY_HEADING[lang]}\n${fold.summary.trim()}`];
}

/** What {@linkcode SessionWindows} reads and calls. */
export interface SessionWindowsOptions {
  sessions: SessionStore;
  agentId: string;
  router: ModelRouter;
  config: AgentConfig;
  channel: Channel;
  logger: Logger;
  /**
   * How many sessions' windows are kept, the least recently read dropped first (read
   * again from the store when needed): a network service's agent answers many peers.
   * @default {@linkcode MAX_WINDOWS}
   */
  maxSessions?: number;
}

/** How many sessions' windows an agent keeps unless told otherwise. */
export const MAX_WINDOWS = 32;

/** The windows of one agent's sessions. */
export class SessionWindows {
  #windows = new Map<string, SessionWindow>();
  #p: SessionWindowsOptions;

  constructor(p: SessionWindowsOptions) {
    this.#p = p;
  }

  /** The sessions whose windows are kept, least recently read first. */
  kept(): string[] {
    return [...this.#windows.keys()];
  }

  #keep(sessionId: string, window: SessionWindow): void {
    this.#windows.delete(sessionId);
    this.#windows.set(sessionId, window);
    const max = this.#p.maxSessions ?? MAX_WINDOWS;
    for (const oldest of this.#windows.keys()) {
      if (this.#windows.size <= max) break;
      this.#windows.delete(oldest);
    }
  }

  /** Drops what was read of a session (messages written over are stale). */
  forget(sessionId: string): void {
    this.#windows.delete(sessionId);
  }

  /** The session's window, with what was stored since the last read. */
  async read(sessionId: string): Promise<SessionWindow> {
    const { sessions, agentId } = this.#p;
    let hit = this.#windows.get(sessionId);
    if (hit === undefined) {
      const fold = foldOf((await sessions.getMeta(sessionId)).compaction);
      hit = { count: fold?.upto ?? 0, fold, messages: [] };
    }
    const more = await sessions.listMessages(sessionId, agentId, { offset: hit.count });
    if (more === undefined) {
      this.#windows.delete(sessionId);
      return { count: 0, fold: undefined, messages: [] };
    }
    const next: SessionWindow = {
      count: hit.count + more.length,
      fold: hit.fold,
      messages: [...hit.messages, ...more.flatMap((m) => readStoredMessage(m) ?? [])],
    };
    this.#keep(sessionId, next);
    return next;
  }

  /**
   * The fold and the stored messages to send: when the window, the summary and what
   * comes in pass the role's context budget, the oldest turns are folded into the
   * summary first. A summary that cannot be written (the fast role is spent or down)
   * still moves the fold: the request stays inside the budget, and the old turns stay
   * on disk and in `/resume`.
   */
  async fit(
    sessionId: string,
    current: SessionWindow,
    options: FitOptions,
  ): Promise<{ fold: Fold | undefined; messages: SessionMessage[] }> {
    const { config, router, channel, logger, sessions } = this.#p;
    const visible = current.messages.filter((m) => !options.leaveOut.includes(m));
    const budget = contextBudget(config, options.role);
    const previous = current.fold?.summary ?? "";
    const start = nextFoldStart(visible.map((m) => m.message), {
      budget,
      summaryTokens: textTokens(previous),
      incomingTokens: options.incoming.reduce((sum, m) => sum + messageTokens(m), 0),
    });
    if (start === undefined) return { fold: current.fold, messages: visible.map((m) => m.message) };
    let summary = previous;
    try {
      summary = await summarise({
        router,
        config,
        role: options.role,
        previous,
        messages: visible.slice(0, start).map((m) => m.message),
        context: { channel, sessionId, signal: options.signal },
        maxChars: transcriptBudget(budget),
      });
    } catch (error) {
      if (options.signal.aborted) throw error;
      logger.warn(`context fold of ${sessionId} without a new summary: ${errorMessage(error)}`);
    }
    const from = current.messages.indexOf(visible[start]!);
    const fold: Fold = { upto: current.count - current.messages.length + from, summary };
    await sessions.patchMeta(sessionId, { compaction: fold });
    this.#keep(sessionId, {
      count: current.count,
      fold,
      messages: current.messages.slice(from),
    });
    return { fold, messages: visible.slice(start).map((m) => m.message) };
  }
}
