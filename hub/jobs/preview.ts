/**
 * A job's answer as one line of plain text, for `agent jobs log` and the dashboard's job
 * log: the answer is Markdown (the messenger shows it formatted), so a preview that kept
 * its `**`, `#` and fences would show marks instead of words. It is read the way the
 * terminal reads Markdown (`hub/terminal/markdown.ts`): marks left out, list bullets and
 * quote bars kept, then its lines joined and cut.
 *
 * @module
 */
import { markdownLines, plainText } from "../terminal/markdown.ts";

/**
 * The first `max` characters of `answer` as plain text on one line (`…` when cut).
 *
 * @example
 * ```ts
 * import { answerPreview } from "./preview.ts";
 * if (answerPreview("**Today**: *two* things", 80) !== "Today: two things") throw new Error();
 * ```
 */
export function answerPreview(answer: string, max: number): string {
  const flat = markdownLines(answer, Number.MAX_SAFE_INTEGER).map(plainText).join(" ")
    .replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
