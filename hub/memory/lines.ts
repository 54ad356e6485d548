/**
 * Memories as a person reads them on a terminal or in a chat: one line each in a list,
 * every field of one with where it came from, a count. Text is made printable (a memory
 * from a page or another person cannot move a terminal's cursor) and cut to the width.
 *
 * @module
 */
import { formatTime, type Lang } from "../i18n.ts";
import { oneLine, printable } from "../text.ts";
import { t } from "./_messages.ts";
import type { Memory, MemoryCounts } from "./types.ts";

/** Options for {@linkcode memoryLines}. */
export interface MemoryLinesOptions {
  /** The terminal's width. @default 80 */
  columns?: number | undefined;
}

/** The status of `memory` as a word. */
export function statusWord(lang: Lang, memory: Memory): string {
  if (memory.status === "pending") return t(lang, "status_pending");
  return memory.valid_until_ms === null ? t(lang, "status_active") : t(lang, "status_superseded");
}

/** The kind of `memory` as a word. */
export function kindWord(lang: Lang, memory: Pick<Memory, "kind">): string {
  return t(lang, `kind_${memory.kind}`);
}

/**
 * One line per memory: `#12 owner · preference · 03.01.2026 · Prefers tea`, with `📌`
 * for a pinned one, `⏳` for one waiting and `↷` for one replaced; "No memories." for
 * none.
 *
 * @example
 * ```ts
 * import { memoryLines } from "./lines.ts";
 * const [line] = memoryLines([{
 *   id: 3, scope: "owner", kind: "fact", text: "Has a cat", source: "owner", status: "active",
 *   pending_reason: null, session_id: null, channel: null, created_ms: 0, valid_until_ms: null,
 *   superseded_by: null, replaces: null, pinned: true, tokens: 3,
 * }], "en");
 * if (line !== "#3 📌 owner · fact · 01.01.1970 · Has a cat") throw new Error(line);
 * ```
 */
export function memoryLines(
  memories: readonly Memory[],
  lang: Lang,
  options: MemoryLinesOptions = {},
): string[] {
  if (memories.length === 0) return [t(lang, "none")];
  const columns = Math.max(40, options.columns ?? 80);
  return memories.map((m) => {
    const mark = m.status === "pending"
      ? "⏳ "
      : m.valid_until_ms !== null
      ? "↷ "
      : m.pinned
      ? "📌 "
      : "";
    const head = `#${m.id} ${mark}${printable(m.scope)} · ${kindWord(lang, m)} · ${
      formatTime(m.created_ms).slice(0, 10)
    } · `;
    const room = Math.max(10, columns - [...head].length);
    return head + printable(oneLine(m.text, { max: room, ellipsis: true }));
  });
}

/** Every field of one memory, with where it came from, then its text. */
export function memoryShowLines(memory: Memory, lang: Lang): string[] {
  const field = (key: Parameters<typeof t>[1], value: string) => `${t(lang, key)}: ${value}`;
  const lines = [
    field("f_id", `#${memory.id}`),
    field("f_scope", printable(memory.scope)),
    field("f_kind", kindWord(lang, memory)),
    field("f_status", statusWord(lang, memory)),
    field("f_source", t(lang, `source_${memory.source}`)),
    field("f_created", formatTime(memory.created_ms)),
  ];
  if (memory.pending_reason !== null) {
    lines[3] += ` (${t(lang, `reason_${memory.pending_reason}`)})`;
  }
  if (memory.valid_until_ms !== null) {
    lines.push(field("f_valid_until", formatTime(memory.valid_until_ms)));
  }
  if (memory.superseded_by !== null) {
    lines.push(field("f_superseded_by", `#${memory.superseded_by}`));
  }
  if (memory.replaces !== null) lines.push(field("f_replaces", `#${memory.replaces}`));
  if (memory.session_id !== null) lines.push(field("f_session", printable(memory.session_id)));
  if (memory.channel !== null) lines.push(field("f_channel", printable(memory.channel)));
  lines.push(field("f_pinned", t(lang, memory.pinned ? "yes" : "no")));
  lines.push(field("f_tokens", String(memory.tokens)));
  lines.push("", printable(memory.text));
  return lines;
}

/** `3 in force, 1 waiting, 2 replaced.` */
export function countLine(counts: MemoryCounts, lang: Lang): string {
  return t(lang, "count_line", { ...counts });
}
