/**
 * The owner hears of mail the agent did not answer: every refused mail is counted,
 * and what gathered is told as one `email.refused` owner event (by reason, with the
 * senders), a few seconds after the first one of a quiet spell and then at most once
 * per 10 minutes, so a spam wave is one message on the owner's channels. What was
 * told is marked in the store, so a restart neither repeats nor loses it.
 *
 * @module
 */
import type { OwnerEventSink } from "../../events/mod.ts";
import type { Lang } from "../../i18n.ts";
import { t } from "./_messages.ts";
import type { MailStore, RefusedRow } from "./store.ts";
import { REFUSALS } from "./trust.ts";
import { Doze } from "./_doze.ts";

/** The shortest time between two digests: 10 minutes. */
export const REFUSED_INTERVAL_MS = 600_000;
/** How long the first refusal after a quiet spell waits for others: 5 seconds. */
export const REFUSED_GATHER_MS = 5_000;
/** Senders named per reason (the rest are counted). */
const SENDERS_SHOWN = 5;

/** Options for {@linkcode RefusedDigest}. */
export interface RefusedDigestOptions {
  store: MailStore;
  events: OwnerEventSink;
  lang: Lang;
  /** @default Date.now */
  now?: () => number;
  /** @default REFUSED_INTERVAL_MS */
  intervalMs?: number;
  /** @default REFUSED_GATHER_MS */
  gatherMs?: number;
}

/**
 * The digest's lines for `rows`: a title, then one line per reason with its senders.
 *
 * @example
 * ```ts
 * import { refusedLines } from "./digest.ts";
 * const lines = refusedLines("en", [
 *   { messageId: "<a@x>", sender: "me@example.com", reason: "unauthenticated", receivedMs: 0 },
 *   { messageId: "<b@x>", sender: "me@example.com", reason: "unauthenticated", receivedMs: 0 },
 * ]);
 * if (lines[1] !== "2 from an allowed address your mail server did not vouch for (anyone can write a From: line): me@example.com ×2") {
 *   throw new Error(lines[1]);
 * }
 * ```
 */
export function refusedLines(lang: Lang, rows: readonly RefusedRow[]): string[] {
  const lines = [t(lang, "refused_title", { n: rows.length })];
  for (const reason of REFUSALS) {
    const of = rows.filter((r) => r.reason === reason);
    if (of.length === 0) continue;
    const counts = new Map<string, number>();
    for (const r of of) {
      if (r.sender !== null) counts.set(r.sender, (counts.get(r.sender) ?? 0) + 1);
    }
    const named = [...counts].slice(0, SENDERS_SHOWN)
      .map(([sender, n]) => n > 1 ? `${sender} ×${n}` : sender);
    if (counts.size > SENDERS_SHOWN) named.push("…");
    lines.push(t(lang, `refused_${reason}`, { n: of.length, senders: named.join(", ") }));
  }
  return lines;
}

/** The refused-mail digest. */
export class RefusedDigest {
  #o: RefusedDigestOptions;
  #doze = new Doze();

  /** Makes the digest; {@linkcode run} starts it. */
  constructor(options: RefusedDigestOptions) {
    this.#o = options;
  }

  /** A mail was refused. */
  poke(): void {
    this.#doze.poke();
  }

  /** Tells what gathered until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    const now = this.#o.now ?? Date.now;
    const interval = this.#o.intervalMs ?? REFUSED_INTERVAL_MS;
    const gather = this.#o.gatherMs ?? REFUSED_GATHER_MS;
    while (!signal.aborted) {
      const rows = this.#o.store.untold();
      if (rows.length === 0) {
        await this.#doze.sleep(3_600_000, signal);
        continue;
      }
      const last = Number(this.#o.store.meta("refused_told_ms") ?? 0);
      const first = rows[0]!.receivedMs;
      const due = Math.max(first + gather, last + interval);
      if (now() < due) {
        await this.#doze.sleep(due - now(), signal);
        if (now() < due) continue;
      }
      const told = this.#o.store.untold();
      if (told.length === 0) continue;
      const byReason: Record<string, number> = {};
      for (const r of told) byReason[r.reason] = (byReason[r.reason] ?? 0) + 1;
      await this.#o.events.publish({
        ts: Math.floor(now() / 1000),
        type: "email.refused",
        count: told.length,
        by_reason: byReason,
        text: refusedLines(this.#o.lang, told).join("\n"),
      });
      this.#o.store.told(told.map((r) => r.messageId));
      this.#o.store.setMeta("refused_told_ms", String(now()));
    }
  }
}
