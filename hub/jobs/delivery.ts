/**
 * The delivery worker: sends the job answers the job store holds as pending (see
 * `delivery_store.ts`) to their targets, the owner-event stream (one `job.result` event)
 * and each messenger chat, and marks each part sent as soon as it is. A send that fails
 * is tried again with the hub's backoff ({@linkcode backoffDelay}) for up to 24 hours,
 * like the network outbox; then, or at once when the target refuses it for good (a 4xx
 * other than 429), the row is dropped and the owner told with a `job.notice`.
 *
 * Never lost: the pending row is written with the run's result, in one transaction, and
 * every process that starts (the hub) sends what is pending. Never doubled: a part is
 * marked in the store right after its send, and a retry starts after the last marked
 * part. The event stream is checked before a retry (an event of the slot found there is
 * not published again); a new cloud container cannot check a former one's, so there the
 * event is published before the spine hears of the answer
 * ({@linkcode DeliveryWorker.publishEvents}, `SpineOutbox.follow`). The Bot API takes no
 * idempotency key and a bot cannot read a chat back, so one window is left: a process
 * killed while a chat send is in flight (after the request left and before its mark, the
 * time of one Bot API call) cannot know whether the part arrived; the next start sends it
 * again (never lost, twice at worst), and logs that it may be a repeat.
 *
 * Idle, it looks at the store every `pollMs` (one indexed query) for rows another
 * process wrote (`agent jobs run` when it could not send).
 *
 * @module
 */
import { errorMessage } from "@agent/net/common";
import { backoffDelay } from "../backoff.ts";
import type { EventSaid, JobResultEvent } from "../events/mod.ts";
import { jobSaid, jobText } from "./run/notice.ts";
import { formatTime, type Lang } from "../i18n.ts";
import type { Logger } from "../log.ts";
import type { DeliveryRow, DeliveryStore } from "./delivery_store.ts";

/** How long a delivery is tried (ms), as the network outbox does. */
export const DELIVERY_RETRY_MS = 24 * 3_600_000;

/** The first retry waits this long; the wait doubles up to the cap. */
const RETRY_BASE_MS = 1_000;
const RETRY_MAX_MS = 5 * 60_000;

/** A send that failed: `permanent` when trying again cannot help (a 4xx but 429). */
export class DeliveryError extends Error {
  readonly permanent: boolean;
  readonly retryAfterMs: number | undefined;
  /** One failed send. */
  constructor(message: string, options: { permanent?: boolean; retryAfterMs?: number } = {}) {
    super(message);
    this.name = "DeliveryError";
    this.permanent = options.permanent === true;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** Where answers go; a target without its sink waits (and is dropped after 24 hours). */
export interface DeliverySinks {
  /** The owner-event stream. */
  events?: {
    publish(event: Omit<JobResultEvent, "ts"> & { ts: number }): Promise<unknown>;
    /** Whether the stream holds a `job.result` of `slotId` already. */
    has(slotId: string): Promise<boolean>;
  };
  /** The messenger: the parts a text is sent in, and one part's send. */
  chat?: {
    parts(text: string): string[];
    send(chat: string, part: string, signal: AbortSignal): Promise<void>;
  };
  /**
   * Tells the owner a delivery was given up (a `job.notice`): `text` in the hub's
   * language, `said` its code for readers in another.
   */
  notice?(job: string, text: string, said: EventSaid): Promise<void>;
}

/** Options for {@linkcode DeliveryWorker}. */
export interface DeliveryWorkerOptions {
  store: DeliveryStore;
  sinks: DeliverySinks;
  lang: Lang;
  logger: Logger;
  /** Whether a process id runs (leases of dead processes are void). */
  alive(pid: number): boolean | undefined;
  now(): number;
  /** How often the store is looked at for rows of other processes. @default 5000 */
  pollMs?: number;
  /** The longest one send may take. @default 30000 */
  sendTimeoutMs?: number;
  /** The first retry's wait (it doubles, up to 5 minutes). @default 1000 */
  retryBaseMs?: number;
  /**
   * Told each change of a row (a part marked sent, a failure, a drop) and awaited before
   * the next part goes: the cloud brain writes it to the spine (`spine_outbox.ts`).
   */
  changed?(row: DeliveryRow): Promise<unknown>;
}

/** Sends pending job answers; one per hub (and one for `agent jobs run`'s own try). */
export class DeliveryWorker {
  #o: DeliveryWorkerOptions;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #pass: Promise<void> | undefined;
  #again = false;
  #stopped = false;
  #stop = new AbortController();

  /** Makes the worker; {@linkcode start} starts it. */
  constructor(options: DeliveryWorkerOptions) {
    this.#o = options;
  }

  /** Voids the leases of processes that died (their sends are tried again), then sends. */
  start(): void {
    const voided = this.#o.store.voidLeases(this.#o.alive);
    if (voided > 0) {
      this.#o.logger.warn(
        `jobs: ${voided} delivery(ies) were being sent when a process stopped; sent again (a chat may get one twice)`,
      );
    }
    this.#o.store.prune(this.#o.now());
    this.kick();
  }

  /** Something new is pending: a pass soon (now, unless one runs; then right after it). */
  kick(): void {
    if (this.#stopped) return;
    if (this.#pass !== undefined) {
      this.#again = true;
      return;
    }
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pass = this.#run().finally(() => {
      this.#pass = undefined;
      if (this.#again) {
        this.#again = false;
        this.kick();
      } else this.#arm();
    });
  }

  /** One pass over what is due now (`agent jobs run` sends its answer this way). */
  async once(): Promise<void> {
    if (this.#pass !== undefined) await this.#pass;
    await this.#run();
  }

  /**
   * Stops: the pass under way finishes (what is due is sent), for 5 seconds at most;
   * then a send in flight is cut short (it stays pending, tried at the next start).
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    const grace = setTimeout(() => this.#stop.abort(), 5_000);
    await this.#pass;
    clearTimeout(grace);
    this.#stop.abort();
  }

  #arm(): void {
    if (this.#stopped) return;
    const now = this.#o.now();
    const poll = now + (this.#o.pollMs ?? 5_000);
    const next = this.#o.store.nextDue();
    const at = next === undefined ? poll : Math.min(poll, next);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.kick();
    }, Math.max(0, at - now));
  }

  async #run(): Promise<void> {
    const { store } = this.#o;
    for (const row of store.due(this.#o.now())) {
      if (this.#stop.signal.aborted) return;
      if (!store.lease(row, this.#o.now())) continue;
      try {
        await this.#send(row);
      } catch (error) {
        await this.#failed(row, error);
      }
    }
  }

  /**
   * Publishes the answer of slot `slotId` to the event stream now, when its row is
   * pending and no one holds it, and marks it sent here; the row's change is not told to
   * {@linkcode DeliveryWorkerOptions.changed} (a failure is). The cloud brain calls it
   * before the spine hears of the answer (`SpineOutbox.follow`), so the spine's first
   * copy of the events target says it is sent and a new container never publishes it
   * again. Never throws.
   */
  async publishEvents(slotId: string): Promise<void> {
    const { store } = this.#o;
    const row = store.get(slotId, "events");
    if (this.#stopped || row?.state !== "pending" || !store.lease(row, this.#o.now())) return;
    try {
      await this.#publish(row, row.attempts > 0 || row.lease_pid !== null);
    } catch (error) {
      await this.#failed(row, error);
    }
  }

  /** One `job.result` on the event stream (a retry first looks for it there), marked sent. */
  async #publish(row: DeliveryRow, retry: boolean): Promise<void> {
    const events = this.#o.sinks.events;
    if (events === undefined) throw new DeliveryError("no event stream");
    if (!retry || !(await events.has(row.slot_id))) {
      await events.publish({
        ts: Math.floor(this.#o.now() / 1000),
        type: "job.result",
        job: row.job,
        slot_id: row.slot_id,
        usd: row.usd,
        deliver: row.deliver,
        text: row.text,
        ...resultSaid(row, this.#o.lang),
      });
    }
    this.#o.store.partSent(row, 1, true, this.#o.now());
  }

  async #send(row: DeliveryRow): Promise<void> {
    const { store, sinks } = this.#o;
    // A row that was tried before, or whose send a dead process held, may have arrived.
    const retry = row.attempts > 0 || row.lease_pid !== null;
    if (row.target === "events") {
      await this.#publish(row, retry);
      await this.#changed(row);
      return;
    }
    const chat = sinks.chat;
    if (chat === undefined) throw new DeliveryError("the messenger is not configured");
    const parts = chat.parts(row.text);
    if (row.lease_pid !== null) {
      this.#o.logger.warn(
        `jobs: the answer of ${row.slot_id} to ${row.target} is sent again from part ${
          row.parts_sent + 1
        }; it may have arrived once already`,
      );
    }
    const id = row.target.slice("chat:".length);
    for (let i = row.parts_sent; i < parts.length; i++) {
      const signal = AbortSignal.any([
        this.#stop.signal,
        AbortSignal.timeout(this.#o.sendTimeoutMs ?? 30_000),
      ]);
      await chat.send(id, parts[i]!, signal);
      store.partSent(row, i + 1, i + 1 === parts.length, this.#o.now());
      await this.#changed(row);
    }
    if (parts.length === 0) {
      store.partSent(row, 0, true, this.#o.now());
      await this.#changed(row);
    }
  }

  /** Tells {@linkcode DeliveryWorkerOptions.changed} the row's stored state; never throws. */
  async #changed(row: DeliveryRow): Promise<void> {
    const changed = this.#o.changed;
    if (changed === undefined) return;
    const now = this.#o.store.get(row.slot_id, row.target);
    if (now === undefined) return;
    try {
      await changed(now);
    } catch (error) {
      this.#o.logger.warn(
        `jobs: cannot record the delivery of ${row.slot_id}: ${errorMessage(error)}`,
      );
    }
  }

  async #failed(row: DeliveryRow, error: unknown): Promise<void> {
    const { store } = this.#o;
    const now = this.#o.now();
    const detail = errorMessage(error);
    const permanent = error instanceof DeliveryError && error.permanent;
    if (!permanent && now - row.created_ms < DELIVERY_RETRY_MS) {
      const wait = backoffDelay(row.attempts, {
        baseMs: this.#o.retryBaseMs ?? RETRY_BASE_MS,
        maxMs: RETRY_MAX_MS,
        retryAfterMs: error instanceof DeliveryError ? error.retryAfterMs : undefined,
      });
      store.failed(row, detail, now + wait);
      await this.#changed(row);
      this.#o.logger.warn(
        `jobs: delivery of ${row.slot_id} to ${row.target} failed (${detail}); tried again in ${
          Math.ceil(wait / 1000)
        } s`,
      );
      return;
    }
    if (!store.drop(row, detail, now)) return;
    await this.#changed(row);
    this.#o.logger.warn(`jobs: gave up the delivery of ${row.slot_id} to ${row.target}: ${detail}`);
    const said = jobSaid("delivery_dropped", {
      vars: {
        name: row.job,
        slot: formatTime(slotMsOf(row.slot_id) ?? row.created_ms),
        target: row.target === "events" ? "events" : row.target.slice("chat:".length),
        detail,
      },
    });
    try {
      await this.#o.sinks.notice?.(row.job, jobText(this.#o.lang, said), said);
    } catch (e) {
      this.#o.logger.error(`jobs: cannot tell the owner: ${errorMessage(e)}`);
    }
  }
}

/** The instant in a slot id (`<name>@<ISO instant>`, `<name>@now-<ISO instant>` by hand), when it has one. */
function slotMsOf(slotId: string): number | undefined {
  const ms = Date.parse(slotId.slice(slotId.indexOf("@") + 1).replace(/^now-/, ""));
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * A `job.result`'s `said`: the stored text is `delivered` (`Job <name> ($<usd>):` and the
 * answer on the lines after) as the hub said it; kept as a code only when it reads back
 * exactly so, else the event carries its text alone.
 */
function resultSaid(row: DeliveryRow, lang: Lang): { said?: EventSaid } {
  const said = jobSaid("delivered", {
    vars: { name: row.job, text: row.text.slice(row.text.indexOf("\n") + 1) },
    usd: { usd: row.usd },
  });
  return jobText(lang, said) === row.text ? { said } : {};
}
