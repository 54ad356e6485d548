/**
 * A session's history as channels show it: the text of the user's and the assistant's
 * messages, and each tool call's outcome where it came, oldest first (`/resume`, the
 * web's transcript). A channel that shows no outcome lines skips the `tool` lines.
 *
 * @module
 */
import type { SessionMessage, ToolResultPart } from "../sessions/mod.ts";
import type { HistoryLine } from "./events.ts";

/**
 * The user and assistant messages of a stored conversation, with a `tool` line for
 * each tool result (its content as the live `TOOL_CALL_RESULT` event has it), oldest
 * first.
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
    if (message.role === "tool") {
      for (const part of message.content) {
        lines.push({ role: "tool", tool: part.toolName, text: outcomeContent(part) });
      }
      continue;
    }
    const text = typeof message.content === "string"
      ? message.content
      : message.content.map((part) => ("text" in part ? part.text : "")).join("");
    if (text.trim() !== "") lines.push({ role: message.role, text: text.trim() });
  }
  return lines;
}

/** Only the messages' lines, without the tool outcomes (a channel that shows none). */
export function messageLines(
  history: readonly HistoryLine[],
): Extract<HistoryLine, { role: "user" | "assistant" }>[] {
  return history.filter((line) => line.role !== "tool");
}

/**
 * A stored tool result as the live event's content: the output as JSON, a failure as
 * `{error}`, a call that never ran as `{declined: true, reason}`.
 */
function outcomeContent(part: ToolResultPart): string {
  if (part.notRun !== undefined) return JSON.stringify({ declined: true, reason: part.notRun });
  const { output } = part;
  if (output.type === "error-text") return JSON.stringify({ error: output.value });
  return JSON.stringify(output.value) ?? "null";
}
