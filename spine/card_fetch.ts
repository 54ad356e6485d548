import type { KVNamespace } from "@cloudflare/workers-types/index.ts";
import { CARD_MAX_BYTES, CARD_TIMEOUT_MS, downloadCard, senderSignKey } from "@agent/net";

export { CARD_MAX_BYTES, CARD_TIMEOUT_MS };

/** How long a fetched card stays in the key-value cache, in seconds. */
export const CARD_CACHE_SECONDS = 3_600;

/** What the inbox keeps of a sender's card: the raw signing key. */
export interface SenderCard {
  /** The raw 32-byte Ed25519 public key. */
  signKey: Uint8Array;
}

/** How long a card stays in an isolate's memory before the key-value store is asked again. */
export const CARD_MEMO_SECONDS = 60;

/**
 * A small in-memory layer in front of the key-value cache, per Worker isolate: a busy
 * sender's envelopes skip the key-value read for a minute. Bounded; the oldest entry
 * goes first.
 */
export class CardMemo {
  #entries = new Map<string, { signKey: Uint8Array; until: number }>();
  #max: number;

  constructor(max = 1_024) {
    this.#max = max;
  }

  /** The remembered key for `from`, if still fresh at `nowMs`. */
  get(from: string, nowMs: number): Uint8Array | undefined {
    const entry = this.#entries.get(from);
    if (!entry) return undefined;
    if (entry.until <= nowMs) {
      this.#entries.delete(from);
      return undefined;
    }
    return entry.signKey;
  }

  /** Remembers `from`'s key for {@linkcode CARD_MEMO_SECONDS}. */
  set(from: string, signKey: Uint8Array, nowMs: number): void {
    this.#entries.delete(from);
    if (this.#entries.size >= this.#max) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(from, { signKey, until: nowMs + CARD_MEMO_SECONDS * 1000 });
  }
}

/** Options for {@linkcode fetchSenderCard}. */
export interface SenderCardOptions {
  /** Whether `localhost` and `127.0.0.1` peers may be reached over http. */
  allowInsecure: boolean;
  /** The key-value cache; without it every request fetches. */
  cache?: KVNamespace | undefined;
  /** The fetch to use. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Fetch timeout in milliseconds. @default 5000 */
  timeoutMs?: number;
  /** An in-memory layer in front of the cache. */
  memo?: CardMemo | undefined;
  /** Only a card already held (memory or cache): never download one. @default false */
  heldOnly?: boolean;
}

/**
 * Checks a sender card the way the inbox needs it: `v` 1, `address` equal to `from`,
 * `sign_key` b64u of 32 bytes and not a small-order point (the check lives in `net/`).
 * Returns the raw key, or `undefined`.
 */
export function senderCardKey(value: unknown, from: string): Uint8Array | undefined {
  return senderSignKey(value, from);
}

/**
 * Gets a sender's card: from the cache `peer:<from>` when present, else
 * `GET <scheme>://<from>/.well-known/agent.json` (5 s, at most 8 KiB, redirects never
 * followed), then cached for an hour. A failing cache read counts as a miss and a
 * failing cache write is ignored. Returns `undefined` when the card is unavailable (or,
 * with `heldOnly`, not already held).
 */
export async function fetchSenderCard(
  from: string,
  options: SenderCardOptions,
): Promise<SenderCard | undefined> {
  const remembered = options.memo?.get(from, Date.now());
  if (remembered) return { signKey: remembered };
  const cacheKey = `peer:${from}`;
  if (options.cache) {
    try {
      const cached = await options.cache.get(cacheKey, "json");
      const signKey = senderCardKey(cached, from);
      if (signKey) {
        options.memo?.set(from, signKey, Date.now());
        return { signKey };
      }
    } catch {
      // A failing read is a miss.
    }
  }
  if (options.heldOnly) return undefined;
  const card = await downloadCard(from, {
    allowInsecure: options.allowInsecure,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  if (card === undefined) return undefined;
  const signKey = senderCardKey(card, from);
  if (!signKey) return undefined;
  options.memo?.set(from, signKey, Date.now());
  if (options.cache) {
    try {
      await options.cache.put(cacheKey, JSON.stringify(card), {
        expirationTtl: CARD_CACHE_SECONDS,
      });
    } catch {
      // A failing write only costs a later fetch.
    }
  }
  return { signKey };
}
