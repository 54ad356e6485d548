/**
 * A call in flight, as the ledger keeps it between "sent" and "ended": written before
 * the provider is called (with the hard cap's reservation), replaced by the call's row
 * when it ends, and settled as an estimated row by the next process that opens the
 * ledger when the process that sent it died. So every call that was sent is a row,
 * whatever ends it.
 *
 * A job run holds its share of its job's day the same way ({@linkcode RunHold}): written
 * before its first call in the transaction that checks the day, released to the run's
 * real spend when it ends, expired when its process died.
 *
 * @module
 */
import type { CallProvider, CallPurpose, CallRecord, Channel } from "./types.ts";

/** One call in flight. */
export interface PendingCall {
  /** Unique per call (a UUID); the settled row keeps it. */
  call_id: string;
  /** When it was sent, epoch ms. */
  ts: number;
  /** The process that sent it. */
  pid: number;
  role: string;
  provider: CallProvider;
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

/**
 * A job run's hold on its job's day: while the run lasts, the day counts the hold in
 * place of what the run's calls cost (they are capped at it, as the run's
 * {@linkcode SessionCeiling}); when it ends the hold goes and the calls count.
 */
export interface RunHold {
  /** Unique per run (its slot id). */
  holdId: string;
  /** The job's name: its runs' sessions are `job-<name>-…`. */
  job: string;
  /** The run's session. */
  sessionId: string;
  /** When the run began, epoch ms. */
  ts: number;
}

/** The day a run's hold must fit in: the job's `max_usd_per_day` from `sinceMs`. */
export interface DayCap {
  /** The day's ceiling, dollars. */
  usd: number;
  /** Start of the day, epoch ms. */
  sinceMs: number;
  /** The most one run holds (`max_usd_per_run`); absent, what the day has left. */
  runUsd?: number | undefined;
  /** The least a run needs to be let through (one run's estimate, at most `runUsd`). */
  minUsd: number;
}

/** What {@linkcode Ledger.hold} decided. */
export type HoldAnswer =
  /** Held: `usd` is the run's ceiling. */
  | { ok: true; usd: number }
  /** The day leaves less than a run: its settled spend, and what running runs hold. */
  | { ok: false; spentUsd: number; heldUsd: number };

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
