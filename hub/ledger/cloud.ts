/**
 * The cloud ledger: in cloud mode every ledger row is appended to the spine's
 * relational store (`POST /hub/ledger`, idempotent by call id), and a brain that starts
 * (a new container with an empty disk) first reads the rows of the current budget
 * periods back into its local ledger (`GET /hub/ledger`). The local ledger stays the
 * cache every budget check reads, so the check stays under a millisecond, and a
 * container restart keeps every budget.
 *
 * Appends are queued and sent in the background, in order, a batch at a time; a batch
 * that fails is kept and sent again with backoff (the spine stores a row once however
 * often it arrives). What is still queued when the process stops is in the local
 * ledger, and {@linkcode CloudLedger.pull} sends it at the next start.
 *
 * @module
 */
import { SpineHttp } from "../spine_http/mod.ts";
import type { Ledger } from "./ledger.ts";
import type { CallRecord, Channel } from "./types.ts";
import { periodBounds } from "./periods.ts";

/** The most rows one append or one page holds (the spine's limit). */
const PAGE = 500;
const REQUEST_TIMEOUT_MS = 15_000;
const RETRY_MAX_MS = 30_000;

/** Options for {@linkcode CloudLedger}. */
export interface CloudLedgerOptions {
  fetch?: typeof fetch;
  /** Where a failed append is told (the hub log). */
  warn?: (line: string) => void;
}

/** The start of the earliest current budget period (a month or a week back at most). */
export function cloudSince(nowMs: number): number {
  return Math.min(periodBounds("month", nowMs).sinceMs, periodBounds("week", nowMs).sinceMs);
}

/** The spine's ledger routes, and the queue of rows on their way there. */
export class CloudLedger {
  #http: SpineHttp;
  #queue: CallRecord[] = [];
  #sending: Promise<void> | undefined;
  #warn: (line: string) => void;
  #failures = 0;
  #closed = false;

  /** The cloud ledger of the spine at `url`, with the hub token. */
  constructor(url: string, token: string, options: CloudLedgerOptions = {}) {
    this.#http = new SpineHttp(url, {
      token,
      timeoutMs: REQUEST_TIMEOUT_MS,
      maxBytes: 8 * 1024 * 1024,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    this.#warn = options.warn ?? (() => {});
  }

  /** Every row from `sinceMs` on, oldest first, page by page. Throws `SpineError`. */
  async rows(sinceMs: number): Promise<CallRecord[]> {
    const out: CallRecord[] = [];
    let after = 0;
    for (;;) {
      const answer = await this.#http.request(`/hub/ledger?since=${sinceMs}&after=${after}`);
      const body = answer.body as { rows: WireRow[]; next: number | null };
      for (const row of body.rows) out.push(fromWire(row));
      if (body.next === null) return out;
      after = body.next;
    }
  }

  /**
   * Reads the rows of the current budget periods into `ledger` (rows it has already,
   * by call id, are skipped), and queues the local rows of those periods the spine does
   * not have (written while it could not be reached, or queued when the process
   * stopped); returns how many rows it read. Throws `SpineError`.
   */
  async pull(ledger: Ledger, nowMs: number): Promise<{ read: number; resent: number }> {
    const since = cloudSince(nowMs);
    const rows = await this.rows(since);
    for (let i = 0; i < rows.length; i += PAGE) ledger.importRows(rows.slice(i, i + PAGE));
    const there = new Set(rows.map((r) => r.call_id));
    const missing = ledger.rowsSince(since).filter((r) => !there.has(r.call_id));
    if (missing.length > 0) this.push(missing);
    return { read: rows.length, resent: missing.length };
  }

  /** Appends `rows` (now, and again until the spine has them). */
  push(rows: readonly CallRecord[]): void {
    if (this.#closed) return;
    this.#queue.push(...rows);
    this.#sending ??= this.#drain().finally(() => {
      this.#sending = undefined;
    });
  }

  /** How many rows are still on their way. */
  get queued(): number {
    return this.#queue.length;
  }

  /** Waits (up to `timeoutMs`) for the queue to empty, then stops taking rows. */
  async close(timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.#sending !== undefined && Date.now() < deadline) {
      await Promise.race([this.#sending, new Promise((r) => setTimeout(r, 50))]);
    }
    this.#closed = true;
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0 && !this.#closed) {
      const batch = this.#queue.slice(0, PAGE);
      try {
        await this.#http.request("/hub/ledger", {
          method: "POST",
          json: { rows: batch.map(toWire) },
        });
        this.#queue.splice(0, batch.length);
        this.#failures = 0;
      } catch (error) {
        this.#failures++;
        if (this.#failures === 1) {
          this.#warn(
            `cloud ledger: cannot append ${batch.length} row(s): ${
              error instanceof Error ? error.message : String(error)
            }; retrying`,
          );
        }
        const wait = Math.min(RETRY_MAX_MS, 250 * 2 ** Math.min(this.#failures, 7));
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }
}

interface WireRow {
  call_id: string;
  ts: number;
  role: string;
  provider: string;
  model_id: string;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  usd: number | null;
  estimated: boolean;
  channel: string;
  session_id: string | null;
  peer: string | null;
}

function toWire(r: CallRecord): WireRow {
  return {
    call_id: r.call_id ?? crypto.randomUUID(),
    ts: r.ts,
    role: r.role,
    provider: r.provider,
    model_id: r.model_id,
    input_tokens: r.input_tokens,
    output_tokens: r.output_tokens,
    cache_read_tokens: r.cache_read_tokens,
    cache_write_tokens: r.cache_write_tokens,
    usd: r.usd,
    estimated: r.estimated === true,
    channel: r.channel,
    session_id: r.session_id,
    peer: r.peer,
  };
}

function fromWire(w: WireRow): CallRecord {
  return {
    ts: w.ts,
    role: w.role,
    provider: w.provider as CallRecord["provider"],
    model_id: w.model_id,
    input_tokens: w.input_tokens,
    output_tokens: w.output_tokens,
    cache_read_tokens: w.cache_read_tokens,
    cache_write_tokens: w.cache_write_tokens,
    usd: w.usd,
    channel: w.channel as Channel,
    session_id: w.session_id,
    peer: w.peer,
    estimated: w.estimated,
    call_id: w.call_id,
  };
}
