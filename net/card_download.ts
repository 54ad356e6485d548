/**
 * Fetching an agent's card the way a server must: `GET <scheme>://<address>/.well-known/
 * agent.json`, https (http only for `localhost`/`127.0.0.1` when insecure peers are
 * allowed), 5 s, at most 8 KiB, redirects never followed. The spine (sender cards) and
 * the universe (members' cards) use it.
 *
 * @module
 */
import { baseUrlFor } from "./address.ts";
import { readLimited } from "./http.ts";

/** Largest card read, in bytes. */
export const CARD_MAX_BYTES = 8 * 1024;

/** How long a card fetch may take, in milliseconds. */
export const CARD_TIMEOUT_MS = 5_000;

/** Options for {@linkcode downloadCard}. */
export interface DownloadCardOptions {
  /** Whether `localhost` and `127.0.0.1` may be reached over http. */
  allowInsecure: boolean;
  /** The fetch to use. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** @default 5000 */
  timeoutMs?: number;
}

/**
 * The parsed JSON of `address`'s card, or `undefined` when it cannot be had within the
 * rules (a redirect, another status, too large, too slow, not JSON).
 */
export async function downloadCard(
  address: string,
  options: DownloadCardOptions,
): Promise<unknown> {
  const doFetch = options.fetch ?? fetch;
  let url: string;
  try {
    url = `${baseUrlFor(address, options.allowInsecure)}/.well-known/agent.json`;
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
