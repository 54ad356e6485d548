/**
 * {@linkcode SpineError}: the one error of every call to a spine (the hub's own, or a
 * peer's public endpoints), whichever module made it. Callers branch on `status`,
 * `code` and `retryAfterMs`; the message is a sentence for a log line or the user.
 *
 * @module
 */

/**
 * What went wrong on the client's side when the spine gave no usable answer: the `code`
 * of a {@linkcode SpineError} whose spine did not say (spine codes are the spec's, such
 * as `unauthorized` or `rate_limited`).
 *
 * - `unreachable`: nothing answered (refused, unknown host, TLS); status 0.
 * - `timeout`: no complete answer in time; status 0, or the status when the body stalled.
 * - `aborted`: the caller gave up; status 0.
 * - `cut_off`: the connection broke in the middle of the answer.
 * - `not_json`: a success that is not JSON (wrong content type, or unparseable).
 * - `answer_too_large`: a success larger than the caller reads.
 * - `bad_answer`: JSON, but not the shape the route answers with.
 */
export type SpineClientCode = typeof SPINE_CLIENT_CODES[number];

/** Every {@linkcode SpineClientCode}. */
export const SPINE_CLIENT_CODES = [
  "unreachable",
  "timeout",
  "aborted",
  "cut_off",
  "not_json",
  "answer_too_large",
  "bad_answer",
] as const;

/** Options for {@linkcode SpineError}. */
export interface SpineErrorOptions extends ErrorOptions {
  /**
   * What the sentence says after the colon; by default `HTTP <status> <code>` for an
   * answer and the code for no answer.
   */
  detail?: string;
  /** How long the spine asked to wait (`Retry-After`), in milliseconds. */
  retryAfterMs?: number | undefined;
}

/**
 * A spine answered with an error, or gave no usable answer (`status` 0 when nothing
 * answered). The message is `<what failed>: <detail>` and never holds a token or a
 * body the spine sent; only a code of the spec's shape is kept from the body.
 *
 * @example
 * ```ts
 * import { SpineError } from "./error.ts";
 * const e = new SpineError("GET /hub/health", 401, "unauthorized");
 * if (e.message !== "GET /hub/health: HTTP 401 unauthorized") throw new Error(e.message);
 * ```
 */
export class SpineError extends Error {
  override name = "SpineError";
  /** The HTTP status; 0 when nothing answered. */
  readonly status: number;
  /** The spine's `{error}` code, a {@linkcode SpineClientCode}, or `""` when neither. */
  readonly code: string;
  /** How long the spine asked to wait before trying again (`Retry-After`), in ms. */
  readonly retryAfterMs: number | undefined;
  /** The message after `<what failed>: `, for a sentence that names the failure itself. */
  readonly detail: string;

  constructor(what: string, status: number, code: string, options: SpineErrorOptions = {}) {
    const { detail, retryAfterMs, ...errorOptions } = options;
    const said = detail ?? defaultDetail(status, code, retryAfterMs);
    super(`${what}: ${said}`, errorOptions);
    this.status = status;
    this.code = code;
    this.retryAfterMs = retryAfterMs;
    this.detail = said;
  }

  /** The spine's own `{error}` code, or `""` when the spine gave none. */
  get spineCode(): string {
    return (SPINE_CLIENT_CODES as readonly string[]).includes(this.code) ? "" : this.code;
  }

  /**
   * Whether trying again later may work: nothing answered, a 5xx, a 429, or an answer
   * cut off or late. A refusal (another 4xx) or a wrong answer stays wrong.
   */
  get transient(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500 ||
      this.code === "cut_off" || this.code === "timeout";
  }
}

function defaultDetail(status: number, code: string, retryAfterMs: number | undefined): string {
  if (status === 0) return code || "no answer";
  const wait = retryAfterMs === undefined
    ? ""
    : ` (retry after ${Math.ceil(retryAfterMs / 1000)} s)`;
  return `HTTP ${status}${code ? ` ${code}` : ""}${wait}`;
}
