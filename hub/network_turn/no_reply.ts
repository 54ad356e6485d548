/**
 * The answer that means "send nothing": `[no reply]`.
 *
 * @module
 */

/** The exact answer a network turn gives when it sends nothing. */
export const NO_REPLY = "[no reply]";

const QUOTES = "\"'`\u201C\u201D\u2018\u2019\u00AB\u00BB\u201E\u201A";

/**
 * Whether the model's answer is `[no reply]`, ignoring case, surrounding whitespace
 * and surrounding quotes.
 *
 * @example
 * ```ts
 * import { isNoReply } from "./no_reply.ts";
 * if (!isNoReply(' "[No Reply]" ') || isNoReply("[no reply] Thanks!")) throw new Error();
 * ```
 */
export function isNoReply(text: string): boolean {
  let s = text.trim();
  let start = 0;
  let end = s.length;
  while (start < end && QUOTES.includes(s[start]!)) start++;
  while (end > start && QUOTES.includes(s[end - 1]!)) end--;
  s = s.slice(start, end).trim();
  return s.toLowerCase() === NO_REPLY;
}
