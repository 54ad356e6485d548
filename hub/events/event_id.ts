/**
 * Owner-event ids: `<epoch ms, 13 digits>-<sequence, 6 digits>`, e.g.
 * `1767225600000-000000`. Fixed width, so plain string order is time order; the writer
 * picks each id under the events file's lock as "after the last id in the file", so ids
 * are unique and rise in file order even when two processes append, and across
 * restarts (the file remembers the last one). A line written before ids existed gets a
 * derived id from its `ts` and a hash of its text, `<ts·1000>-L<8 hex>`, stable as
 * long as the line is kept.
 *
 * @module
 */

/** Whether `value` is an owner-event id (written or derived). */
export function isEventId(value: string): boolean {
  return /^\d{13}-(\d{6}|L[0-9a-f]{8})$/.test(value);
}

/**
 * The id for an event appended now, after `last` (the newest id in the file, if any):
 * the current millisecond when it is later than `last`'s, else the next one after
 * `last` (the clock may stand still or step back).
 *
 * @example
 * ```ts
 * import { nextEventId } from "./event_id.ts";
 * const a = nextEventId(undefined, 1767225600000);
 * const b = nextEventId(a, 1767225600000);
 * if (a !== "1767225600000-000000" || b !== "1767225600000-000001") throw new Error();
 * ```
 */
export function nextEventId(last: string | undefined, nowMs: number): string {
  const lastMs = last === undefined ? -1 : Number(last.slice(0, 13));
  if (nowMs > lastMs) return formatId(nowMs, 0);
  const seq = last!.charAt(14) === "L" ? Number.NaN : Number(last!.slice(14));
  // After a derived id, or a full millisecond, the next millisecond starts afresh.
  return Number.isInteger(seq) && seq < 999_999
    ? formatId(lastMs, seq + 1)
    : formatId(lastMs + 1, 0);
}

/** The id of a line written without one: from its `ts` (Unix seconds) and its text. */
export function derivedEventId(tsSec: number, line: string): string {
  const ms = Math.max(0, Math.min(9_999_999_999_999, Math.floor(tsSec) * 1000));
  return `${String(ms).padStart(13, "0")}-L${fnv1a(line)}`;
}

/**
 * A bound for "events from `ms` on": every id of an event at or after `ms` sorts above
 * it, every earlier one below (used as `after` by a reader that remembers a time).
 */
export function eventIdFloor(ms: number): string {
  return String(Math.max(0, Math.floor(ms))).padStart(13, "0");
}

function formatId(ms: number, seq: number): string {
  return `${String(ms).padStart(13, "0")}-${String(seq).padStart(6, "0")}`;
}

/** FNV-1a, 32 bits, as 8 hex digits: small, stable, enough to tell old lines apart. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}
