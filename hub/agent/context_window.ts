/**
 * The context budget: what of a session's history a turn sends. Without it every turn
 * resends the whole conversation, so a chat that lives for months costs more per
 * message every week and finally passes the model's window. With it the request stays
 * near the role's `context_tokens`: once the history passes the budget, its oldest
 * turns are folded into a summary (written by the `fast` role; see `compaction.ts`)
 * and only the recent ones are sent. The stored conversation is never changed: the
 * fold is a pointer (`upto`) and a summary kept in the session's meta.
 *
 * Tokens are estimated at 4 characters each (the ledger's rule of thumb where a
 * provider reports none): the fold point needs to be near, not exact.
 *
 * @module
 */
import type { SessionMessage } from "../sessions/mod.ts";

/** Characters per estimated token. */
export const CHARS_PER_TOKEN = 4;

/**
 * The share of the budget the history keeps after a fold. A fold makes room for about
 * a tenth of the budget, so the request size stays within about 10% of the budget
 * however long the chat runs, and a fold (one `fast` call) comes every few dozen turns.
 */
export const KEEP_SHARE = 0.9;

/** Tool results in the last this many user turns are sent whole; older ones as a line. */
export const RECENT_TOOL_TURNS = 2;

/** The longest line an older tool result is cut to. */
export const TOOL_LINE_CHARS = 160;

/** Where the session's history was folded: stored in its meta under `compaction`. */
export interface Fold {
  /** Messages before this index (in the stored order) are in `summary`. */
  upto: number;
  summary: string;
}

/**
 * The estimated tokens of a message: its JSON form as a request sends it, role and all
 * (a stored plain string goes out as a text part).
 */
export function messageTokens(message: SessionMessage): number {
  const content = typeof message.content === "string"
    ? [{ type: "text", text: message.content }]
    : message.content;
  return Math.ceil(JSON.stringify({ role: message.role, content }).length / CHARS_PER_TOKEN);
}

/** The estimated tokens of a text. */
export function textTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** A stored `compaction` meta value, or `undefined` when it is not one. */
export function foldOf(value: unknown): Fold | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { upto, summary } = value as Record<string, unknown>;
  if (typeof upto !== "number" || !Number.isInteger(upto) || upto < 0) return undefined;
  if (typeof summary !== "string") return undefined;
  return { upto, summary };
}

/**
 * Where the next fold should end, or `undefined` when the window still fits:
 * `messages` are the stored messages from `fold.upto` on, `incoming` what this turn
 * adds. The new start is the first user message from which the rest fits in
 * `KEEP_SHARE` of the budget, so a tool call is never split from its result; the
 * newest turn is always kept, even when it alone is larger than the budget.
 *
 * @example
 * ```ts
 * import { nextFoldStart } from "./context_window.ts";
 * const turn = (n: number) => [
 *   { role: "user" as const, content: "x".repeat(400) + n },
 *   { role: "assistant" as const, content: [{ type: "text" as const, text: "y".repeat(400) }] },
 * ];
 * const messages = [1, 2, 3, 4, 5].flatMap(turn);
 * // About 229 tokens a turn: a budget of 700 keeps the last two (90% of it).
 * if (nextFoldStart(messages, { budget: 700, summaryTokens: 0, incomingTokens: 0 }) !== 6) {
 *   throw new Error();
 * }
 * if (nextFoldStart(messages, { budget: 5000, summaryTokens: 0, incomingTokens: 0 }) !== undefined) {
 *   throw new Error();
 * }
 * ```
 */
export function nextFoldStart(
  messages: readonly SessionMessage[],
  options: { budget: number; summaryTokens: number; incomingTokens: number },
): number | undefined {
  const sizes = messages.map(messageTokens);
  const total = sizes.reduce((a, b) => a + b, 0) + options.summaryTokens + options.incomingTokens;
  if (total <= options.budget) return undefined;
  const keep = options.budget * KEEP_SHARE - options.summaryTokens - options.incomingTokens;
  let kept = 0;
  let start: number | undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    kept += sizes[i]!;
    if (messages[i]!.role !== "user") continue;
    if (kept > keep && start !== undefined) break;
    start = i;
  }
  // Nothing to fold: the window is one turn (the newest, or none at all).
  if (start === undefined || start === 0) return undefined;
  return start;
}

/**
 * The messages a request sends: tool results older than the last
 * `RECENT_TOOL_TURNS` user turns cut to one line (the full result stays stored).
 */
export function trimOldToolResults(messages: readonly SessionMessage[]): SessionMessage[] {
  let userTurns = 0;
  let recentFrom = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role !== "user") continue;
    userTurns++;
    if (userTurns === RECENT_TOOL_TURNS) {
      recentFrom = i;
      break;
    }
  }
  return messages.map((message, i) =>
    i >= recentFrom || message.role !== "tool" ? message : toolLine(message)
  );
}

type ToolMessage = Extract<SessionMessage, { role: "tool" }>;

function toolLine(message: ToolMessage): ToolMessage {
  return {
    ...message,
    content: message.content.map((part) => {
      const output = part.output;
      const text = output.type === "json" ? JSON.stringify(output.value) : output.value;
      const line = oneLine(text ?? "");
      if (line === text) return part;
      return { ...part, output: { type: "text" as const, value: line } };
    }),
  };
}

/** A text as one line of at most `TOOL_LINE_CHARS` characters, cut with "…". */
export function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= TOOL_LINE_CHARS ? flat : `${flat.slice(0, TOOL_LINE_CHARS - 1)}…`;
}
