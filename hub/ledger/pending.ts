/**
 * A call in flight, as the ledger keeps it between "sent" and "ended": written before
 * the provider is called (with the hard cap's reservation), replaced by the call's row
 * when it ends, and settled as an estimated row by the next process that opens the
 * ledger when the process that sent it died. So every call that was sent is a row,
 * whatever ends it.
 *
 * @module
 */
import type { CallPurpose, CallRecord, Channel } from "./types.ts";
import type { ProviderId } from "../config/types.ts";

/** One call in flight. */
export interface PendingCall {
  /** Unique per call (a UUID); the settled row keeps it. */
  call_id: string;
  /** When it was sent, epoch ms. */
  ts: number;
  /** The process that sent it. */
  pid: number;
  role: string;
  provider: ProviderId;
  model_id: string;
  /** The prompt's estimated tokens (see `estimateTokens`). */
  input_tokens: number;
  /** The prompt's estimated dollars; `null` for an unpriced model. */
  estimate_usd: number | null;
  /**
   * The call's most possible cost, held against a hard cap until the call ends; 0
   * without a hard cap.
   */
  reserved_usd: number;
  channel: Channel;
  session_id: string | null;
  peer: string | null;
  /** @default "turn" */
  purpose?: CallPurpose | undefined;
}

/** A hard cap a reservation must fit under. */
export interface HardCap {
  /** The cap, dollars. */
  usd: number;
  /** Start of the budget's current period, epoch ms. */
  sinceMs: number;
}

/**
 * A ceiling on one session's spend (a job's run): what its settled calls since
 * `sinceMs` cost plus what its calls in flight hold may not pass `usd`.
 */
export interface SessionCeiling {
  sessionId: string;
  /** The ceiling, dollars. */
  usd: number;
  /** When the session began, epoch ms. */
  sinceMs: number;
}

/** What {@linkcode Ledger.begin} decided. */
export type Reservation =
  | { ok: true }
  | {
    ok: false;
    /** The session's ceiling refused the call (not the role's cap). */
    ceiling?: true;
    /** Settled spend in the period. */
    spentUsd: number;
    /** Held by other calls in flight. */
    reservedUsd: number;
  };

/** The estimated row a pending call becomes when its process died before it ended. */
export function pendingRecord(p: PendingCall): CallRecord {
  return {
    ts: p.ts,
    role: p.role,
    provider: p.provider,
    model_id: p.model_id,
    input_tokens: p.input_tokens,
    output_tokens: 0,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    usd: p.estimate_usd,
    channel: p.channel,
    session_id: p.session_id,
    peer: p.peer,
    estimated: true,
    call_id: p.call_id,
    purpose: p.purpose ?? "turn",
  };
}
