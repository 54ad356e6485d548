/**
 * {@linkcode SpineHttp}: the one way the hub speaks HTTP to a spine. The network
 * service, the spine document store, the spine session store and `agent cloud` each
 * keep their routes in their own module and send every request through here, so all
 * of them share one base URL rule, one bearer token header, timeouts, capped body
 * reading, and one mapping of whatever came back to a {@linkcode SpineError}.
 *
 * Redirects are never followed: a spine does not redirect, and a followed redirect
 * would carry the hub token to wherever it points.
 *
 * @module
 */
import { errorLine, isJsonContentType, readLimited } from "@agent/net";
import { parseRetryAfter } from "../backoff.ts";
import { SpineError } from "./error.ts";

/** Options for {@linkcode SpineHttp}. */
export interface SpineHttpOptions {
  /** The bearer token of `/hub/*`; none for a spine's public endpoints. */
  token?: string;
  /** The fetch to use. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** How long a request may take, its answer read. @default 15000 */
  timeoutMs?: number;
  /** The largest answer read, in bytes. @default 1048576 */
  maxBytes?: number;
}

/** Options of one request. */
export interface SpineRequest {
  /** @default "GET" */
  method?: string;
  /** A JSON request body. */
  json?: unknown;
  /** A text request body (`text/plain; charset=utf-8`). */
  text?: string;
  /**
   * The statuses that are answers rather than errors (`[200, 404]` where 404 means
   * "none"). A status outside them throws. @default every 2xx
   */
  expect?: readonly number[];
  /**
   * How a 2xx answer's body is read: parsed JSON, text, or dropped. A non-2xx status
   * in `expect` has its body dropped. @default "json"
   */
  answer?: "json" | "text" | "none";
  /** What failed, for the error's sentence. @default "<METHOD> <path without query>" */
  what?: string;
  /** Overrides the client's timeout for this request. */
  timeoutMs?: number;
  /** Overrides the client's answer limit for this request. */
  maxBytes?: number;
  signal?: AbortSignal | undefined;
}

/** An answer: its status, its body as asked (`undefined` when dropped) and headers. */
export interface SpineAnswer {
  status: number;
  body: unknown;
  headers: Headers;
}

/** An answer whose body is still to be read, under its request's timeout and limit. */
export interface SpineResponse {
  readonly status: number;
  readonly headers: Headers;
  /** The body as JSON; throws a {@linkcode SpineError} when it is not. */
  json(): Promise<unknown>;
  /** The body as text. */
  text(): Promise<string>;
  /** Drops the body. */
  cancel(): Promise<void>;
}

/** The most of an error answer read to find its `{error}` code. */
const ERROR_BODY_MAX = 8 * 1024;

/** What a spine's error code looks like; anything else in `{error}` is not repeated. */
const CODE_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

/** A request in flight: the signal it runs under and how to tell why it stopped. */
interface Flight {
  signal: AbortSignal;
  timedOut(): boolean;
  aborted(): boolean;
  timeoutMs: number;
}

/** HTTP to one spine. The token never appears in an error, a log line or a sentence. */
export class SpineHttp {
  #url: string;
  #token: string | undefined;
  #fetch: typeof fetch;
  #timeoutMs: number;
  #maxBytes: number;

  /** A client for the spine at `url` (a trailing slash is dropped). */
  constructor(url: string, options: SpineHttpOptions = {}) {
    this.#url = url.replace(/\/+$/, "");
    this.#token = options.token || undefined;
    this.#fetch = options.fetch ?? fetch;
    this.#timeoutMs = options.timeoutMs ?? 15_000;
    this.#maxBytes = options.maxBytes ?? 1024 * 1024;
  }

  /** The spine's base URL, without a trailing slash. */
  get url(): string {
    return this.#url;
  }

  /** The `Authorization` header of a hub request (for the doorbell's upgrade). */
  get authHeaders(): Record<string, string> {
    return this.#token === undefined ? {} : { authorization: `Bearer ${this.#token}` };
  }

  /**
   * Sends a request and reads its answer. Throws a {@linkcode SpineError} for a status
   * outside `expect`, no answer, or an answer that cannot be read as asked.
   */
  async request(path: string, options: SpineRequest = {}): Promise<SpineAnswer> {
    const res = await this.exchange(path, options);
    const answer = options.answer ?? "json";
    if (res.status < 200 || res.status >= 300 || answer === "none") {
      await res.cancel();
      return { status: res.status, body: undefined, headers: res.headers };
    }
    const body = answer === "text" ? await res.text() : await res.json();
    return { status: res.status, body, headers: res.headers };
  }

  /**
   * Sends a request and returns its answer unread: fetch failures and statuses outside
   * `expect` are thrown; the body is the caller's to read (or drop), still under the
   * request's timeout and limit.
   */
  async exchange(path: string, options: SpineRequest = {}): Promise<SpineResponse> {
    const what = options.what ?? whatOf(options.method ?? "GET", path);
    const flight = this.#flight(options);
    const res = await this.#send(path, options, what, flight);
    const expected = options.expect === undefined
      ? res.status >= 200 && res.status < 300
      : options.expect.includes(res.status);
    if (!expected) throw await this.#refusal(res, what);
    const max = options.maxBytes ?? this.#maxBytes;
    return {
      status: res.status,
      headers: res.headers,
      json: async () => this.#json(res, await this.#read(res, max, what, flight), what),
      text: async () => new TextDecoder().decode(await this.#read(res, max, what, flight)),
      cancel: async () => await res.body?.cancel().catch(() => {}),
    };
  }

  /** The status of a plain request, 0 when nothing answered (the body is dropped). */
  async status(path: string, options: SpineRequest = {}): Promise<number> {
    try {
      const res = await this.#send(path, options, path, this.#flight(options));
      await res.body?.cancel().catch(() => {});
      return res.status;
    } catch {
      return 0;
    }
  }

  #flight(options: { timeoutMs?: number; signal?: AbortSignal | undefined }): Flight {
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const caller = options.signal;
    return {
      signal: caller === undefined ? timeout : AbortSignal.any([timeout, caller]),
      timedOut: () => timeout.aborted,
      aborted: () => caller?.aborted === true,
      timeoutMs,
    };
  }

  async #send(
    path: string,
    options: SpineRequest,
    what: string,
    flight: Flight,
  ): Promise<Response> {
    const headers: Record<string, string> = { ...this.authHeaders };
    let body: string | null = null;
    if (options.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.json);
    } else if (options.text !== undefined) {
      headers["content-type"] = "text/plain; charset=utf-8";
      body = options.text;
    }
    if ((options.answer ?? "json") === "json") headers.accept = "application/json";
    try {
      return await this.#fetch(`${this.#url}${path}`, {
        method: options.method ?? "GET",
        headers,
        body,
        redirect: "manual",
        signal: flight.signal,
      });
    } catch (error) {
      if (flight.aborted()) throw new SpineError(what, 0, "aborted", { cause: error });
      if (flight.timedOut()) {
        throw new SpineError(what, 0, "timeout", {
          cause: error,
          detail: `timed out after ${seconds(flight.timeoutMs)}`,
        });
      }
      throw new SpineError(what, 0, "unreachable", {
        cause: error,
        detail: this.#scrub(describeFetchError(error)),
      });
    }
  }

  /** The error for an answer whose status the caller does not take. */
  async #refusal(res: Response, what: string): Promise<SpineError> {
    let code = "";
    try {
      const bytes = res.body === null
        ? undefined
        : await readLimited(res.body, ERROR_BODY_MAX, { drainBytes: 0 });
      const parsed = bytes === undefined ? undefined : JSON.parse(new TextDecoder().decode(bytes));
      const error = (parsed as { error?: unknown } | null)?.error;
      if (typeof error === "string" && CODE_PATTERN.test(error) && !this.#holdsToken(error)) {
        code = error;
      }
    } catch { /* not JSON, cut off or too long: the status says enough */ }
    const retryAfterMs = parseRetryAfter(res.headers.get("retry-after"));
    const redirect = res.status >= 300 && res.status < 400;
    return new SpineError(what, res.status, code, {
      retryAfterMs,
      ...(redirect ? { detail: `HTTP ${res.status} (a redirect, not followed)` } : {}),
    });
  }

  async #read(res: Response, max: number, what: string, flight: Flight): Promise<Uint8Array> {
    if (res.body === null) return new Uint8Array();
    let bytes: Uint8Array | undefined;
    try {
      bytes = await readLimited(res.body, max, { drainBytes: 0 });
    } catch (error) {
      if (flight.aborted()) throw new SpineError(what, 0, "aborted", { cause: error });
      if (flight.timedOut()) {
        throw new SpineError(what, res.status, "timeout", {
          cause: error,
          detail: `the answer stalled past ${seconds(flight.timeoutMs)}`,
        });
      }
      throw new SpineError(what, res.status, "cut_off", {
        cause: error,
        detail: "the connection broke in the middle of the answer",
      });
    }
    if (bytes === undefined) {
      throw new SpineError(what, res.status, "answer_too_large", {
        detail: `the answer is over ${sizeOf(max)}`,
      });
    }
    return bytes;
  }

  #json(res: Response, bytes: Uint8Array, what: string): unknown {
    const type = res.headers.get("content-type");
    if (!isJsonContentType(type)) {
      const essence = type?.split(";", 1)[0]?.trim().toLowerCase() ?? "";
      const shown = /^[a-z0-9.+-]{1,40}\/[a-z0-9.+-]{1,80}$/.test(essence) ? ` (${essence})` : "";
      throw new SpineError(what, res.status, "not_json", {
        detail: `the answer is not JSON${shown}`,
      });
    }
    try {
      return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    } catch {
      throw new SpineError(what, res.status, "not_json", { detail: "the answer is not JSON" });
    }
  }

  #holdsToken(text: string): boolean {
    return this.#token !== undefined && text.includes(this.#token);
  }

  #scrub(text: string): string {
    return this.#token === undefined ? text : text.replaceAll(this.#token, "[token]");
  }
}

/** `GET /hub/sessions/x`, the query left out (it may be long, and says nothing). */
function whatOf(method: string, path: string): string {
  return `${method} ${path.split("?")[0]}`;
}

/**
 * A fetch failure in a few words, without the runtime's URL and layers. Deno says
 * `fetch failed` and puts the reason in the `cause` chain, so the whole chain is read.
 */
function describeFetchError(error: unknown): string {
  const chain: string[] = [];
  for (let e: unknown = error; e !== undefined && e !== null && chain.length < 5;) {
    chain.push(errorLine(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  const all = chain.join(" / ");
  if (/refused/i.test(all)) return "connection refused";
  if (/dns|lookup|not known|resolve/i.test(all)) return "host not found";
  if (/reset|broken pipe|connection closed/i.test(all)) return "connection reset";
  if (/certificate|tls|ssl/i.test(all)) return "TLS failed";
  const last = chain.at(-1) ?? "";
  return last.replace(/^error sending request for url \([^)]*\):\s*/i, "") || "unreachable";
}

function seconds(ms: number): string {
  return ms < 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

function sizeOf(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
