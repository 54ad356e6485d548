/**
 * The hub's client for its own spine's hub API (`/hub/*`, bearer token) and for other
 * agents' public endpoints (cards and inboxes).
 *
 * @module
 */
import { baseUrlFor, type Card, parseCard, type WireEnvelope } from "@agent/net";
import { SpineError, SpineHttp } from "../spine_http/mod.ts";

export { SpineError } from "../spine_http/mod.ts";

/**
 * This agent's own spine did not answer (or answered 5xx) when the hub asked it: a
 * {@linkcode SpineError} that names the culprit, so a failure there is never blamed
 * on a peer or the universe. Keeps the status, code and `Retry-After` of the cause.
 */
export class OwnSpineError extends SpineError {
  override name = "OwnSpineError";
  /** The spine's URL (`AGENT_SPINE_URL`). */
  readonly url: string;

  /** Wraps `cause`, an error of a request to the spine at `url`. */
  constructor(url: string, cause: SpineError) {
    super(`Your own spine ${url} does not answer`, cause.status, cause.code, {
      detail: cause.message,
      ...(cause.retryAfterMs === undefined ? {} : { retryAfterMs: cause.retryAfterMs }),
      cause,
    });
    this.url = url;
  }
}

/** `GET /hub/health`. */
export interface SpineHealth {
  ok: boolean;
  address: string;
  mode: string;
  card: boolean;
  mailbox: number;
  version: string;
}

/** One update of `GET /hub/updates`. */
export interface Update {
  seq: number;
  received_at: number;
  envelope: WireEnvelope;
}

/** Options for {@linkcode SpineClient}. */
export interface SpineClientOptions {
  fetch?: typeof fetch;
  /** HTTP timeout of the long poll. @default 35000 */
  longPollTimeoutMs?: number;
  /** HTTP timeout of other requests. @default 15000 */
  requestTimeoutMs?: number;
}

/** Talks to the hub's own spine. The token never appears in errors or logs. */
export class SpineClient {
  #http: SpineHttp;
  #longPollMs: number;

  /** A client for the spine at `url` (`AGENT_SPINE_URL`) with `token` (`AGENT_SPINE_TOKEN`). */
  constructor(url: string, token: string, options: SpineClientOptions = {}) {
    this.#http = new SpineHttp(url, {
      token,
      timeoutMs: options.requestTimeoutMs ?? 15_000,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    this.#longPollMs = options.longPollTimeoutMs ?? 35_000;
  }

  /** The spine's base URL. */
  get url(): string {
    return this.#http.url;
  }

  /** The doorbell URL (`ws:` or `wss:`). */
  get wsUrl(): string {
    return `${this.url.replace(/^http/, "ws")}/hub/ws`;
  }

  /** The headers of every hub request. */
  get authHeaders(): Record<string, string> {
    return this.#http.authHeaders;
  }

  /** `GET /hub/health`. */
  async health(signal?: AbortSignal): Promise<SpineHealth> {
    const { body } = await this.#http.request("/hub/health", { signal });
    if (!isRecord(body) || typeof body.address !== "string") {
      throw new SpineError("GET /hub/health", 200, "bad_answer", {
        detail: "the answer names no address",
      });
    }
    return body as unknown as SpineHealth;
  }

  /** `PUT /hub/card`; returns the full card. */
  async putCard(
    card: { name: string; sign_key: string; box_key: string },
    signal?: AbortSignal,
  ): Promise<Card> {
    const { body } = await this.#http.request("/hub/card", { method: "PUT", json: card, signal });
    try {
      return parseCard(body);
    } catch (error) {
      throw new SpineError("PUT /hub/card", 200, "bad_answer", {
        cause: error,
        detail: "the answer is not a card",
      });
    }
  }

  /** `GET /hub/updates?after=&timeout=&limit=`. */
  async updates(
    after: number,
    options: { timeout?: number; limit?: number; signal?: AbortSignal } = {},
  ): Promise<Update[]> {
    const timeout = options.timeout ?? 0;
    const query = `after=${after}&timeout=${timeout}&limit=${options.limit ?? 50}`;
    const { body } = await this.#http.request(`/hub/updates?${query}`, {
      ...(timeout > 0 ? { timeoutMs: this.#longPollMs } : {}),
      maxBytes: UPDATES_ANSWER_MAX,
      signal: options.signal,
    });
    if (!isRecord(body) || !Array.isArray(body.updates)) {
      throw new SpineError("GET /hub/updates", 200, "bad_answer", { detail: "no updates list" });
    }
    return body.updates as Update[];
  }

  /** `POST /hub/ack`; returns how many were deleted. */
  async ack(seqs: number[], signal?: AbortSignal): Promise<number> {
    if (seqs.length === 0) return 0;
    let deleted = 0;
    for (let i = 0; i < seqs.length; i += 1000) {
      const { body } = await this.#http.request("/hub/ack", {
        method: "POST",
        json: { seqs: seqs.slice(i, i + 1000) },
        signal,
      });
      const n = isRecord(body) ? body.deleted : undefined;
      deleted += typeof n === "number" ? n : 0;
    }
    return deleted;
  }

  /**
   * The card the spine serves now (`GET /.well-known/agent.json`, at most 8 KiB), or
   * `undefined` before one is published (404). Any other answer throws.
   */
  async publishedCard(
    options: { timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<Record<string, unknown> | undefined> {
    const { status, body } = await this.#http.request("/.well-known/agent.json", {
      expect: [200, 404],
      maxBytes: 8 * 1024,
      ...options,
    });
    if (status === 404) return undefined;
    if (!isRecord(body)) {
      throw new SpineError("GET /.well-known/agent.json", status, "bad_answer", {
        detail: "the answer is not a card",
      });
    }
    return body;
  }

  /** A plain GET of `/hub/ws` to learn why an upgrade failed (its HTTP status). */
  probeDoorbell(signal?: AbortSignal): Promise<number> {
    return this.#http.status("/hub/ws", { signal });
  }
}

/**
 * The most of a `GET /hub/updates` answer read: a full batch (at most 100) of the
 * largest envelopes (64 KiB each) and their wrapping.
 */
export const UPDATES_ANSWER_MAX = 8 * 1024 * 1024;

/** Options for the peer calls. */
export interface PeerOptions {
  /** `AGENT_NET_ALLOW_INSECURE=1`: http for `localhost` and `127.0.0.1`. */
  allowInsecure: boolean;
  fetch?: typeof fetch;
  signal?: AbortSignal;
}

/**
 * Fetches and checks an agent's card (`GET <scheme>://<address>/.well-known/agent.json`):
 * 5 s timeout, at most 8 KiB, no redirects, `address` must equal the address asked.
 */
export async function fetchCard(address: string, options: PeerOptions): Promise<Card> {
  const what = `Cannot fetch the card of ${address}`;
  const { body } = await peer(address, options, 5_000).request("/.well-known/agent.json", {
    what,
    expect: [200],
    maxBytes: 8 * 1024,
    signal: options.signal,
  });
  try {
    return parseCard(body, address);
  } catch (error) {
    throw new SpineError(what, 200, "bad_answer", {
      detail: error instanceof Error ? error.message : "bad card",
    });
  }
}

/** What a recipient's inbox said to an envelope. */
export type Delivery = "queued" | "duplicate";

/** The most of a peer's `/net/inbox` answer the hub reads (8 KiB). */
export const INBOX_ANSWER_MAX = 8 * 1024;

/**
 * Posts an envelope to `<scheme>://<to>/net/inbox`. A 202 or a `duplicate` answer is
 * delivered; anything else throws a {@linkcode SpineError} with the code.
 */
export async function postEnvelope(
  to: string,
  wire: WireEnvelope,
  options: PeerOptions,
): Promise<Delivery> {
  const what = `Cannot deliver to ${to}`;
  // A peer's answer is a few bytes; a hostile one must not fill the hub's memory.
  const res = await peer(to, options, 15_000).exchange("/net/inbox", {
    method: "POST",
    json: wire,
    what,
    expect: [200, 202],
    maxBytes: INBOX_ANSWER_MAX,
    signal: options.signal,
  });
  if (res.status === 202) {
    await res.cancel();
    return "queued";
  }
  const body = await res.json();
  if (isRecord(body) && body.status === "duplicate") return "duplicate";
  throw new SpineError(what, res.status, "bad_answer", {
    detail: `HTTP ${res.status} without a duplicate status`,
  });
}

/** A peer's public endpoints: no token. */
function peer(address: string, options: PeerOptions, timeoutMs: number): SpineHttp {
  return new SpineHttp(baseUrlFor(address, options.allowInsecure), {
    timeoutMs,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
