/**
 * The hub's client for its own spine's hub API (`/hub/*`, bearer token) and for other
 * agents' public endpoints (cards and inboxes).
 *
 * @module
 */
import { baseUrlFor, type Card, parseCard, readLimited, type WireEnvelope } from "@agent/net";
import { errorMessage } from "@agent/net/common";

/** A spine answered with an error (or could not be reached: `status` 0). */
export class SpineError extends Error {
  override name = "SpineError";
  /** HTTP status; 0 when nothing answered. */
  status: number;
  /** The body's `error` code, when there was one. */
  code: string;

  constructor(what: string, status: number, code: string, options?: ErrorOptions) {
    super(`${what}: ${status === 0 ? code : `HTTP ${status}${code ? ` ${code}` : ""}`}`, options);
    this.status = status;
    this.code = code;
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
  #url: string;
  #token: string;
  #fetch: typeof fetch;
  #longPollMs: number;
  #requestMs: number;

  /** A client for the spine at `url` (`AGENT_SPINE_URL`) with `token` (`AGENT_SPINE_TOKEN`). */
  constructor(url: string, token: string, options: SpineClientOptions = {}) {
    this.#url = url.replace(/\/+$/, "");
    this.#token = token;
    this.#fetch = options.fetch ?? fetch;
    this.#longPollMs = options.longPollTimeoutMs ?? 35_000;
    this.#requestMs = options.requestTimeoutMs ?? 15_000;
  }

  /** The spine's base URL. */
  get url(): string {
    return this.#url;
  }

  /** The doorbell URL (`ws:` or `wss:`). */
  get wsUrl(): string {
    return `${this.#url.replace(/^http/, "ws")}/hub/ws`;
  }

  /** The headers of every hub request. */
  get authHeaders(): Record<string, string> {
    return { authorization: `Bearer ${this.#token}` };
  }

  /** `GET /hub/health`. */
  async health(signal?: AbortSignal): Promise<SpineHealth> {
    return await this.#call(
      "GET",
      "/hub/health",
      undefined,
      this.#requestMs,
      signal,
    ) as SpineHealth;
  }

  /** `PUT /hub/card`; returns the full card. */
  async putCard(
    card: { name: string; sign_key: string; box_key: string },
    signal?: AbortSignal,
  ): Promise<Card> {
    return parseCard(await this.#call("PUT", "/hub/card", card, this.#requestMs, signal));
  }

  /** `GET /hub/updates?after=&timeout=&limit=`. */
  async updates(
    after: number,
    options: { timeout?: number; limit?: number; signal?: AbortSignal } = {},
  ): Promise<Update[]> {
    const timeout = options.timeout ?? 0;
    const query = `after=${after}&timeout=${timeout}&limit=${options.limit ?? 50}`;
    const body = await this.#call(
      "GET",
      `/hub/updates?${query}`,
      undefined,
      timeout > 0 ? this.#longPollMs : this.#requestMs,
      options.signal,
    ) as { updates?: unknown };
    if (!Array.isArray(body.updates)) {
      throw new SpineError("Cannot fetch updates", 200, "no updates list");
    }
    return body.updates as Update[];
  }

  /** `POST /hub/ack`; returns how many were deleted. */
  async ack(seqs: number[], signal?: AbortSignal): Promise<number> {
    if (seqs.length === 0) return 0;
    let deleted = 0;
    for (let i = 0; i < seqs.length; i += 1000) {
      const body = await this.#call(
        "POST",
        "/hub/ack",
        { seqs: seqs.slice(i, i + 1000) },
        this.#requestMs,
        signal,
      ) as { deleted?: number };
      deleted += body.deleted ?? 0;
    }
    return deleted;
  }

  /** A plain GET of `/hub/ws` to learn why an upgrade failed (its HTTP status). */
  async probeDoorbell(signal?: AbortSignal): Promise<number> {
    try {
      const res = await this.#fetch(`${this.#url}/hub/ws`, {
        headers: this.authHeaders,
        signal: anySignal(this.#requestMs, signal),
      });
      await res.body?.cancel();
      return res.status;
    } catch {
      return 0;
    }
  }

  async #call(
    method: string,
    path: string,
    body: unknown,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    const what = `${method} ${path.split("?")[0]}`;
    let res: Response;
    try {
      res = await this.#fetch(`${this.#url}${path}`, {
        method,
        headers: {
          ...this.authHeaders,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? null : JSON.stringify(body),
        signal: anySignal(timeoutMs, signal),
      });
    } catch (error) {
      throw new SpineError(what, 0, describeFetchError(error), { cause: error });
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!res.ok) {
      const code = typeof (parsed as { error?: unknown })?.error === "string"
        ? (parsed as { error: string }).error
        : "";
      throw new SpineError(what, res.status, code);
    }
    if (parsed === undefined) throw new SpineError(what, res.status, "the answer is not JSON");
    return parsed;
  }
}

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
  const url = `${baseUrlFor(address, options.allowInsecure)}/.well-known/agent.json`;
  let res: Response;
  try {
    res = await (options.fetch ?? fetch)(url, {
      redirect: "manual",
      headers: { accept: "application/json" },
      signal: anySignal(5_000, options.signal),
    });
  } catch (error) {
    throw new SpineError(`Cannot fetch the card of ${address}`, 0, describeFetchError(error), {
      cause: error,
    });
  }
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new SpineError(`Cannot fetch the card of ${address}`, res.status, "");
  }
  const bytes = res.body === null
    ? new Uint8Array()
    : await readLimited(res.body, 8 * 1024, { drainBytes: 0 });
  if (bytes === undefined) {
    throw new SpineError(`Cannot fetch the card of ${address}`, 200, "the card is over 8 KiB");
  }
  try {
    return parseCard(JSON.parse(new TextDecoder().decode(bytes)), address);
  } catch (error) {
    throw new SpineError(
      `Cannot fetch the card of ${address}`,
      200,
      error instanceof Error ? error.message : "bad card",
    );
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
  const url = `${baseUrlFor(to, options.allowInsecure)}/net/inbox`;
  let res: Response;
  try {
    res = await (options.fetch ?? fetch)(url, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(wire),
      signal: anySignal(15_000, options.signal),
    });
  } catch (error) {
    throw new SpineError(`Cannot deliver to ${to}`, 0, describeFetchError(error), {
      cause: error,
    });
  }
  // A peer's answer is a few bytes; a hostile one must not fill the hub's memory.
  let body: Record<string, unknown> = {};
  try {
    const bytes = res.body === null
      ? undefined
      : await readLimited(res.body, INBOX_ANSWER_MAX, { drainBytes: 0 });
    if (bytes !== undefined) body = JSON.parse(new TextDecoder().decode(bytes));
  } catch { /* not JSON, or cut off */ }
  if (res.status === 202) return "queued";
  if (res.status === 200 && body.status === "duplicate") return "duplicate";
  throw new SpineError(
    `Cannot deliver to ${to}`,
    res.status,
    typeof body.error === "string" ? body.error : "",
  );
}

function anySignal(timeoutMs: number, signal: AbortSignal | undefined): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal === undefined ? timeout : AbortSignal.any([timeout, signal]);
}

function describeFetchError(error: unknown): string {
  if (error instanceof DOMException && error.name === "TimeoutError") return "timed out";
  if (error instanceof DOMException && error.name === "AbortError") return "aborted";
  const message = errorMessage(error);
  if (/refused/i.test(message)) return "connection refused";
  return message.split("\n")[0] ?? "unreachable";
}
