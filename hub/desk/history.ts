/**
 * A session's history as channels show it: the text of the user's and the assistant's
 * messages, oldest first, tool calls and results left out (`/resume`, the web's
 * transcript).
 *
 * @module
 */
import type { SessionMessage } from "../sessions/mod.ts";
import type { HistoryLine } from "./events.ts";

/**
 * The text of the user and assistant messages of a stored conversation, oldest first
 * (tool calls and results left out).
 *
 * @example
 * ```ts
 * import { historyLines } from "./history.ts";
 * const lines = historyLines([{ role: "user", content: " hi " }]);
 * if (lines[0]?.text !== "hi") throw new Error();
 * ```
 */
export function historyLines(messages: readonly SessionMessage[]): HistoryLine[] {
  const lines: HistoryLine[] = [];
  for (const message of messages) {
    if (message.role !== "user" && message.role !== "assistant") continue;
    const text = typeof message.content === "string"
      ? message.content
      : message.content.map((part) => ("text" in part ? part.text : "")).join("");
    if (text.trim() !== "") lines.push({ role: message.role, text: text.trim() });
  }
  return lines;
}
