import { HttpError } from "@agent/net";

/** Longest long-poll wait in seconds. */
export const MAX_POLL_SECONDS = 25;

/** Most updates per answer. */
export const MAX_UPDATES = 100;

/** Most seqs per acknowledgement. */
export const MAX_ACK_SEQS = 1_000;

/** A checked `GET /hub/updates` query. */
export interface UpdatesQuery {
  /** Only seqs above this. @default 0 */
  after: number;
  /** Seconds to wait when nothing is queued. @default 0 */
  timeout: number;
  /** Most updates returned. @default 50 */
  limit: number;
}

function integerParam(
  params: URLSearchParams,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const all = params.getAll(name);
  if (all.length === 0) return fallback;
  if (all.length > 1) {
    throw new HttpError(400, "bad_request", { detail: `'${name}' is given twice` });
  }
  const text = all[0]!;
  if (!/^\d{1,16}$/.test(text)) {
    throw new HttpError(400, "bad_request", { detail: `'${name}' must be an integer` });
  }
  const value = Number(text);
  if (value < min || value > max) {
    throw new HttpError(400, "bad_request", {
      detail: `'${name}' must be between ${min} and ${max}`,
    });
  }
  return value;
}

/**
 * Checks `after`, `timeout` (0 to 25) and `limit` (1 to 100). Values that are not
 * integers or out of range get 400; nothing is clamped.
 *
 * @example
 * ```ts
 * import { parseUpdatesQuery } from "./hub_query.ts";
 * const q = parseUpdatesQuery(new URLSearchParams("after=3&timeout=25"));
 * if (q.after !== 3 || q.timeout !== 25 || q.limit !== 50) throw new Error();
 * ```
 */
export function parseUpdatesQuery(params: URLSearchParams): UpdatesQuery {
  return {
    after: integerParam(params, "after", 0, 0, Number.MAX_SAFE_INTEGER),
    timeout: integerParam(params, "timeout", 0, 0, MAX_POLL_SECONDS),
    limit: integerParam(params, "limit", 50, 1, MAX_UPDATES),
  };
}

/**
 * Checks a `POST /hub/ack` body `{seqs: [int, ...]}` (at most 1 000 seqs, each a
 * non-negative integer) and returns the distinct seqs.
 */
export function parseAckBody(value: unknown): number[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new HttpError(400, "bad_request", { detail: "the body must be a JSON object" });
  }
  const seqs = (value as Record<string, unknown>).seqs;
  if (!Array.isArray(seqs)) {
    throw new HttpError(400, "bad_request", { detail: "'seqs' must be an array" });
  }
  if (seqs.length > MAX_ACK_SEQS) {
    throw new HttpError(400, "bad_request", {
      detail: `'seqs' holds more than ${MAX_ACK_SEQS} values`,
    });
  }
  for (const seq of seqs) {
    if (!Number.isSafeInteger(seq) || (seq as number) < 0) {
      throw new HttpError(400, "bad_request", {
        detail: "'seqs' must hold non-negative integers",
      });
    }
  }
  return [...new Set(seqs as number[])];
}
