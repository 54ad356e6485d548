/**
 * The searchable text of one stored message: what the dashboard's transcript shows of it
 * (the parts with text of a `user` or `assistant` message, as the desk's `historyLines()`
 * reads them), never tool calls or tool results. The stored shape is read tolerantly (a record with the
 * message under `message`, or the message itself; `content` as a string or as parts,
 * or `parts`), so an older or newer session file still indexes what it can.
 *
 * @module
 */

/**
 * The text of `stored`, or `""` when it holds none that a person would search for.
 *
 * @example
 * ```ts
 * import { messageText } from "./text.ts";
 * const said = { message: { role: "user", content: [{ type: "text", text: "Merhaba" }] } };
 * if (messageText(said) !== "Merhaba") throw new Error();
 * if (messageText({ message: { role: "tool", content: "42" } }) !== "") throw new Error();
 * ```
 */
export function messageText(stored: unknown): string {
  const record = asRecord(stored);
  const message = asRecord(record?.message) ?? record;
  if (message === undefined) return "";
  if (message.role !== "user" && message.role !== "assistant") return "";
  const content = message.content ?? message.parts;
  if (typeof content === "string") return content.trim();
  if (!Array.isArray(content)) return "";
  const texts: string[] = [];
  for (const part of content) {
    const p = asRecord(part);
    if (typeof p?.text === "string") texts.push(p.text);
  }
  return texts.join("").trim();
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
}
