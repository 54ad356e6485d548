/**
 * New session ids, the same shape in every channel: `<kind>-YYYYMMDD-HHMMSS-xxxx`
 * (UTC time, four random hex digits), e.g. `chat-20261126-124903-9f3a` or
 * `messenger-...`: sortable by time and telling where a session began.
 *
 * @module
 */

/**
 * A fresh session id of `kind` (`chat`, `messenger`, `web`).
 *
 * @example
 * ```ts
 * import { newSessionId } from "./session_id.ts";
 * const id = newSessionId("chat", Date.UTC(2026, 10, 26, 12, 49, 3));
 * if (!/^chat-20261126-124903-[0-9a-f]{4}$/.test(id)) throw new Error(id);
 * ```
 */
export function newSessionId(kind: string, nowMs: number = Date.now()): string {
  const iso = new Date(nowMs).toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${kind}-${iso}-${crypto.randomUUID().slice(0, 4)}`;
}
