/**
 * What `agent net send` (and the `net_send` tool) learn of a message not delivered yet:
 * the culprit (the peer's rate limit, no answer, the peer's error) and when the outbox
 * tries again, so a 429 is never told as "does not answer".
 *
 * @module
 */
import { SpineError } from "./spine_client.ts";

/** What `NetNode.send` did. */
export interface SendOutcome {
  id: string;
  /** `pending`: not delivered yet, the outbox tries again (`later` says why and when). */
  delivery: "queued" | "duplicate" | "pending";
  later?: PendingReason & {
    /** Unix seconds of the next attempt (a peer's `Retry-After` is kept to). */
    retry_at: number;
  };
}

/** Why a post waits for a retry, named after its culprit. */
export interface PendingReason {
  /**
   * `rate_limited`: the peer's spine said 429 (`rate_limited`); `unreachable`: nothing
   * answered; `peer_error`: the peer's spine answered 5xx (`mailbox_full` among them).
   */
  why: "rate_limited" | "unreachable" | "peer_error";
  /** The HTTP status (0: no answer) and the spine's `{error}` code, when it gave one. */
  status: number;
  code: string;
}

/**
 * The culprit of a failed post worth retrying.
 *
 * @example
 * ```ts
 * import { pendingReason } from "./send_outcome.ts";
 * import { SpineError } from "./spine_client.ts";
 * const why = pendingReason(new SpineError("Cannot deliver", 429, "rate_limited"));
 * if (why.why !== "rate_limited") throw new Error(why.why);
 * ```
 */
export function pendingReason(error: unknown): PendingReason {
  const status = error instanceof SpineError ? error.status : 0;
  const code = error instanceof SpineError ? error.spineCode : "";
  const why = status === 429 ? "rate_limited" : status === 0 ? "unreachable" : "peer_error";
  return { why, status, code };
}
