import type { KVNamespace } from "@cloudflare/workers-types/index.ts";
import { b64uDecode, baseUrlFor } from "../net/mod.ts";
import { readLimited } from "./http.ts";

/** Largest sender card read, in bytes. */
export const CARD_MAX_BYTES = 8 * 1024;

/** How long a sender card fetch may take, in milliseconds. */
export const CARD_TIMEOUT_MS = 5_000;

/** How long a fetched card stays in the key-value cache, in seconds. */
export const CARD_CACHE_SECONDS = 3_600;

/** What the inbox keeps of a sender's card: the raw signing key. */
export interface SenderCard {
  /** The raw 32-byte Ed25519 public key. */
  signKey: Uint8Array;
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
}

/**
 * Checks a sender card the way the inbox needs it: `v` 1, `address` equal to `from`,
 * `sign_key` b64u of 32 bytes. Returns the raw key, or `undefined`.
 */
export function senderCardKey(value: unknown, from: string): Uint8Array | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const card = value as Record<string, unknown>;
  if (card.v !== 1 || card.address !== from || typeof card.sign_key !== "string") {
    return undefined;
  }
  try {
    const key = b64uDecode(card.sign_key);
    return key.byteLength === 32 ? key : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Gets a sender's card: from the cache `peer:<from>` when present, else
 * `GET <scheme>://<from>/.well-known/agent.json` (5 s, at most 8 KiB, redirects never
 * followed), then cached for an hour. A failing cache read counts as a miss and a
 * failing cache write is ignored. Returns `undefined` when the card is unavailable.
 */
export async function fetchSenderCard(
  from: string,
  options: SenderCardOptions,
): Promise<SenderCard | undefined> {
  const cacheKey = `peer:${from}`;
  if (options.cache) {
    try {
      const cached = await options.cache.get(cacheKey, "json");
      const signKey = senderCardKey(cached, from);
      if (signKey) return { signKey };
    } catch {
      // A failing read is a miss.
    }
  }
  const card = await download(from, options);
  if (card === undefined) return undefined;
  const signKey = senderCardKey(card, from);
  if (!signKey) return undefined;
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

async function download(from: string, options: SenderCardOptions): Promise<unknown> {
  const doFetch = options.fetch ?? fetch;
  let url: string;
  try {
    url = `${baseUrlFor(from, options.allowInsecure)}/.well-known/agent.json`;
  } catch {
    return undefined;
  }
  try {
    const response = await doFetch(url, {
      redirect: "manual",
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(options.timeoutMs ?? CARD_TIMEOUT_MS),
    });
    if (response.status !== 200 || !response.body) {
      await response.body?.cancel().catch(() => {});
      return undefined;
    }
    const declared = response.headers.get("content-length");
    if (declared !== null && Number(declared) > CARD_MAX_BYTES) {
      await response.body.cancel().catch(() => {});
      return undefined;
    }
    const bytes = await readLimited(response.body, CARD_MAX_BYTES);
    if (bytes === undefined) return undefined;
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
}
