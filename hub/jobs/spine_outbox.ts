/**
 * The cloud brain's job answers and job log on the spine (`/hub/jobs/deliveries`,
 * `/hub/jobs/log`, `spine/cloud/jobs_outbox.ts`): in cloud mode the brain's data folder
 * is its container's disk, lost whenever the container stops, so every change of a
 * delivery row (written when its run ends, each part marked sent, a failure, a drop)
 * and every finished entry of the job log is written to the spine too, and a brain that
 * starts in an empty container reads them back ({@linkcode SpineOutbox.pull}) before it
 * runs or sends anything: the pending answers are sent from the part after the last one
 * marked there, never twice, and `agent jobs log` shows the runs of former containers.
 *
 * A delivery change is awaited by the delivery worker (the mark of a part is on the
 * spine before the next part goes), a log entry is sent in the background. A write the
 * spine does not take is kept (the newest state of each row) and sent again with
 * backoff; the spine's writes are idempotent, so a row sent twice is stored once. A
 * local hub keeps its job store alone: this is for `agent cloud run` only.
 *
 * @module
 */
import { errorMessage } from "@agent/net/common";
import { SpineHttp } from "../spine_http/mod.ts";
import type { DeliveryRow } from "./delivery_store.ts";
import type { JobStore, RunRow } from "./store.ts";

/** The most rows one write carries (the spine's limit). */
const PAGE = 500;
const RETRY_MAX_MS = 30_000;

/** A delivery as the spine keeps it (no lease: a lease is one process's). */
export type SpineDelivery = Omit<DeliveryRow, "lease_pid" | "lease_ms">;

/** One job's newest outcome and spend in the brain's log on the spine. */
export interface JobSummary {
  last_state: RunRow["state"];
  last_ms: number;
  today_usd: number;
  period_usd: number;
}

/** Options for {@linkcode SpineOutbox}. */
export interface SpineOutboxOptions {
  url: string;
  token: string;
  fetch?: typeof fetch;
  /** Where a failed write is told (the hub log). */
  warn?: (line: string) => void;
}

/** The spine's copy of the brain's deliveries and job log, and the writes on their way. */
export class SpineOutbox {
  #http: SpineHttp;
  #warn: (line: string) => void;
  #deliveries = new Map<string, SpineDelivery>();
  #runs = new Map<string, RunRow>();
  #flushing: Promise<boolean> | undefined;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #failures = 0;
  #closed = false;

  /** The outbox of the spine at `url`, with the hub token. */
  constructor(options: SpineOutboxOptions) {
    this.#http = new SpineHttp(options.url, {
      token: options.token,
      timeoutMs: 10_000,
      maxBytes: 16 * 1024 * 1024,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    this.#warn = options.warn ?? (() => {});
  }

  /** The pending deliveries on the spine. Throws `SpineError`. */
  async pending(): Promise<SpineDelivery[]> {
    const answer = await this.#http.request("/hub/jobs/deliveries");
    return (answer.body as { deliveries: SpineDelivery[] }).deliveries;
  }

  /** The newest `limit` entries of the job log (of `job`), newest first. Throws `SpineError`. */
  async runs(job?: string, limit = 50): Promise<RunRow[]> {
    const query = new URLSearchParams({ limit: String(limit), ...(job ? { job } : {}) });
    const answer = await this.#http.request(`/hub/jobs/log?${query}`);
    const rows = (answer.body as { runs: (Omit<RunRow, "missed"> & { missed: number })[] }).runs;
    return rows.map((r) => ({ ...r, missed: r.missed === 1 }));
  }

  /**
   * Per job: its newest log entry and what its runs cost since `dayMs` and since
   * `sinceMs` (`agent jobs list --cloud`). Throws `SpineError`.
   */
  async summary(dayMs: number, sinceMs: number): Promise<Map<string, JobSummary>> {
    const answer = await this.#http.request(`/hub/jobs/summary?day=${dayMs}&since=${sinceMs}`);
    const jobs = (answer.body as { jobs: (JobSummary & { job: string })[] }).jobs;
    return new Map(jobs.map(({ job, ...rest }) => [job, rest]));
  }

  /**
   * A brain's start: reads the spine's pending deliveries and its job log into `store`
   * (a row it has already keeps the parts it marked, and takes the spine's when more),
   * then writes what `store` holds that the spine may lack or has older (a former process of this
   * container stopped before its writes went). Returns what it read. Throws `SpineError`.
   */
  async pull(store: JobStore, nowMs: number): Promise<{ deliveries: number; runs: number }> {
    const [deliveries, runs] = await Promise.all([this.pending(), this.runs(undefined, PAGE)]);
    store.deliveries.importRows(deliveries, nowMs);
    store.importRuns(runs);
    const there = new Set(runs.map((r) => r.slot_id));
    for (const row of store.deliveries.pendingRows()) this.#deliveries.set(key(row), wire(row));
    // Sent or dropped here while the spine still waits for it (the write was lost when this
    // container's former process stopped): else the spine's cron would wake the brain for it.
    for (const d of deliveries) {
      const here = store.deliveries.get(d.slot_id, d.target);
      if (here !== undefined && here.state !== "pending") {
        this.#deliveries.set(key(here), wire(here));
      }
    }
    for (const row of store.log(undefined, PAGE)) {
      if (row.state !== "running" && !there.has(row.slot_id)) this.#runs.set(row.slot_id, row);
    }
    if (this.#deliveries.size + this.#runs.size > 0) this.#schedule(0);
    return { deliveries: deliveries.length, runs: runs.length };
  }

  /**
   * Writes each entry of `store`'s log when it is finished, and the rows of its answer,
   * to the spine (it sets `store.onLogged`). The answer's event is published first
   * (`worker.publishEvents`), so the spine's first copy of the events target already says
   * it is sent: a new container reads no pending events target for an event a former one
   * published, and does not publish it again. The other order (the spine told first) would
   * lose the event to a container that died between the two; this one only makes the rows
   * wait for the publish, and until the spine has them a container that dies loses the
   * answer either way (see `docs/jobs.md`).
   */
  follow(store: JobStore, worker: { publishEvents(slotId: string): Promise<void> }): void {
    store.onLogged = (slotId) => {
      const row = store.row(slotId);
      if (row !== undefined) this.run(row);
      if (store.deliveries.of(slotId).length === 0) return;
      void worker.publishEvents(slotId).finally(() => {
        for (const d of store.deliveries.of(slotId)) void this.delivery(d);
      });
    };
  }

  /**
   * A delivery row changed: written to the spine before this resolves (`true`), or kept
   * and tried again in the background (`false`, told once per outage). Never throws.
   */
  delivery(row: DeliveryRow): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    this.#deliveries.set(key(row), wire(row));
    // In an outage the background retry writes it: a send does not wait for the spine.
    if (this.#failures > 0) return Promise.resolve(false);
    return this.#flush();
  }

  /** A job log entry was finished: written to the spine in the background. */
  run(row: RunRow): void {
    if (this.#closed || row.state === "running") return;
    this.#runs.set(row.slot_id, row);
    void this.#flush();
  }

  /** How many rows wait to be written. */
  get queued(): number {
    return this.#deliveries.size + this.#runs.size;
  }

  /** Writes what waits (for `timeoutMs` at most), then stops taking rows. */
  async close(timeoutMs = 5_000): Promise<void> {
    if (this.#retry !== undefined) clearTimeout(this.#retry);
    this.#retry = undefined;
    const deadline = Date.now() + timeoutMs;
    while (this.queued > 0 && Date.now() < deadline) {
      const written = await Promise.race([
        this.#flush(),
        new Promise<false>((r) => setTimeout(() => r(false), Math.max(0, deadline - Date.now()))),
      ]);
      if (!written) break;
    }
    this.#closed = true;
    if (this.#retry !== undefined) clearTimeout(this.#retry);
  }

  /** One write of everything that waits, after the one under way. */
  #flush(): Promise<boolean> {
    const previous = this.#flushing ?? Promise.resolve(true);
    const next = previous.then(() => this.#write());
    this.#flushing = next.finally(() => {
      if (this.#flushing === next) this.#flushing = undefined;
    });
    return next;
  }

  async #write(): Promise<boolean> {
    if (this.queued === 0) return true;
    const deliveries = [...this.#deliveries.values()].slice(0, PAGE);
    const runs = [...this.#runs.values()].slice(0, PAGE);
    try {
      if (deliveries.length > 0) {
        await this.#http.request("/hub/jobs/deliveries", {
          method: "POST",
          json: { rows: deliveries },
        });
        // A row changed while it was written stays queued (its newer state goes next).
        for (const d of deliveries) {
          if (this.#deliveries.get(key(d)) === d) this.#deliveries.delete(key(d));
        }
      }
      if (runs.length > 0) {
        await this.#http.request("/hub/jobs/log", { method: "POST", json: { rows: runs } });
        for (const r of runs) if (this.#runs.get(r.slot_id) === r) this.#runs.delete(r.slot_id);
      }
      this.#failures = 0;
      if (this.queued > 0) this.#schedule(0);
      return true;
    } catch (error) {
      this.#failures++;
      if (this.#failures === 1) {
        this.#warn(
          `jobs: cannot write ${deliveries.length} answer(s) and ${runs.length} log entr(ies) to the spine (${
            errorMessage(error)
          }); retrying`,
        );
      }
      this.#schedule(Math.min(RETRY_MAX_MS, 250 * 2 ** Math.min(this.#failures, 7)));
      return false;
    }
  }

  #schedule(ms: number): void {
    if (this.#closed || this.#retry !== undefined) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      void this.#flush();
    }, ms);
  }
}

function key(row: { slot_id: string; target: string }): string {
  return `${row.slot_id}\n${row.target}`;
}

function wire(row: DeliveryRow | SpineDelivery): SpineDelivery {
  return {
    slot_id: row.slot_id,
    target: row.target,
    job: row.job,
    text: row.text,
    usd: row.usd,
    deliver: row.deliver,
    created_ms: row.created_ms,
    state: row.state,
    parts_sent: row.parts_sent,
    attempts: row.attempts,
    next_ms: row.next_ms,
    last_error: row.last_error,
    done_ms: row.done_ms,
  };
}
