/**
 * The hub's network service: waits for mail on its spine (the doorbell WebSocket, or
 * the long poll), fetches from `after=0`, handles then acknowledges every envelope,
 * and keeps the `net` block of `/status`.
 *
 * Links: `auto` keeps the doorbell open and fetches with `timeout=0` on every ring
 * (hello included) and at least every 5 minutes; a connection that lasted a minute is
 * reopened at once, a shorter one is a failed attempt (backoff, then an HTTP fetch).
 * A 404 or 426 on the upgrade, or three failed attempts in a row, fall back to the long
 * poll with a doorbell retry every 30 minutes. `websocket` never falls back; `poll`
 * always long-polls. A 401 anywhere stops the service (`failed`); every other error
 * backs off exponentially up to 60 s and never reaches the hub.
 *
 * @module
 */
import { backoffDelay, pause } from "../backoff.ts";
import { flushOutbox } from "./outbox.ts";
import type { NetNode } from "./node.ts";
import { type HandleDeps, handleUpdate } from "./handle.ts";
import { SpineError, type Update } from "./spine_client.ts";
import { ringDoorbell } from "./doorbell.ts";
import type { NetDigest } from "./digest.ts";
import { errorMessage } from "@agent/net/common";

/** Timings of the service; tests shrink them. */
export interface NetTimings {
  /** First backoff step. @default 1000 */
  backoffBaseMs: number;
  /** How often the outbox is looked at. @default 30000 */
  outboxMs: number;
  /** Backoff ceiling. @default 60000 */
  backoffMaxMs: number;
  /** Safety fetch on the doorbell link. @default 300000 */
  safetyFetchMs: number;
  /** Ping interval on the doorbell. @default 30000 */
  pingMs: number;
  /** Without any frame this long, the doorbell counts as dropped. @default 75000 */
  dropMs: number;
  /** Doorbell retry after a fallback. @default 1800000 */
  doorbellRetryMs: number;
  /** A doorbell connection lasting this long is reopened at once. @default 60000 */
  stableMs: number;
  /** The long poll's wait in seconds (`[net] poll_timeout_seconds`). @default 25 */
  pollTimeoutSeconds: number;
}

/** The spec's timings. */
export const DEFAULT_TIMINGS: NetTimings = {
  backoffBaseMs: 1000,
  outboxMs: 30_000,
  backoffMaxMs: 60_000,
  safetyFetchMs: 300_000,
  pingMs: 30_000,
  dropMs: 75_000,
  doorbellRetryMs: 1_800_000,
  stableMs: 60_000,
  pollTimeoutSeconds: 25,
};

/** Updates fetched at once; a full batch is fetched again at once. */
export const FETCH_BATCH = 50;

/** The longest wait `GET /hub/updates` accepts. */
const SPINE_MAX_WAIT_S = 25;

/** The `net` block of `/status`. */
export interface NetStatusBlock {
  configured: boolean;
  /** What is used now: `websocket` or `poll`. */
  link: "websocket" | "poll";
  doorbell: {
    setting: "auto" | "websocket" | "poll";
    connects: number;
    reconnects: number;
    rings: number;
    fallbacks: number;
    last_ring_at: string | null;
    last_error: string | null;
    retry_at?: string;
  };
  /** `idle` (not configured), `polling` (on both links) or `failed` (after a 401). */
  state: "idle" | "polling" | "failed";
  /** The address is known and the card was published since the hub started. */
  ready: boolean;
  address?: string;
  /** Why the service is idle or failed. */
  detail?: string;
  handled: number;
  dropped: number;
  /** Envelopes in the outbox waiting to be delivered. */
  outbox: number;
}

/** Options for {@linkcode NetService}. */
export interface NetServiceOptions {
  /** The node; `undefined` when the network is not configured. */
  node: NetNode | undefined;
  /** Answers a message from an accepted contact (a network turn). */
  answer: HandleDeps["answer"];
  link: "auto" | "websocket" | "poll";
  timings?: Partial<NetTimings>;
  /** Why the network is not configured (for `/status`). */
  unconfigured?: string;
  /** The owner's network digest: told of every answered message, started and stopped with the service. */
  digest?: NetDigest | undefined;
  /** What it lacks, as a code a client words in its own language (for `/status`). */
  missing?: string;
  /** Called after every handled envelope (tests, benchmarks). */
  onHandled?: (result: Awaited<ReturnType<typeof handleUpdate>>, update: Update) => void;
}

/** The network service, run by the hub as one of its components. */
export class NetService {
  /** Name for the hub log. */
  readonly name = "network";
  /**
   * The universe reporter's refresh, set by the hub's network service: a universe act
   * made while the hub runs (the dashboard's Join) reports at once through it.
   */
  universeChanged: (() => Promise<void>) | undefined;
  #node: NetNode | undefined;
  #deps: HandleDeps | undefined;
  #timings: NetTimings;
  #status: NetStatusBlock;
  #stop = new AbortController();
  #loop: Promise<void> | undefined;
  #fetching: Promise<void> | undefined;
  #fetchLock: Promise<void> = Promise.resolve();
  #again = false;
  #onHandled: NetServiceOptions["onHandled"];
  #outboxTimer: ReturnType<typeof setInterval> | undefined;
  #flushing: Promise<void> | undefined;
  #digest: NetDigest | undefined;

  constructor(options: NetServiceOptions) {
    this.#node = options.node;
    this.#digest = options.digest;
    const digest = options.digest;
    this.#deps = options.node === undefined ? undefined : {
      node: options.node,
      answer: options.answer,
      ...(digest === undefined ? {} : { onAnswered: (m) => digest.record(m) }),
    };
    this.#timings = { ...DEFAULT_TIMINGS, ...options.timings };
    this.#onHandled = options.onHandled;
    this.#status = {
      configured: options.node !== undefined,
      link: options.link === "poll" ? "poll" : "websocket",
      doorbell: {
        setting: options.link,
        connects: 0,
        reconnects: 0,
        rings: 0,
        fallbacks: 0,
        last_ring_at: null,
        last_error: null,
      },
      state: options.node === undefined ? "idle" : "polling",
      ready: false,
      handled: 0,
      dropped: 0,
      outbox: 0,
      ...(options.unconfigured === undefined ? {} : { detail: options.unconfigured }),
      ...(options.missing === undefined ? {} : { missing: options.missing }),
    };
  }

  /** The node, when the network is configured (channels accept contacts through it). */
  get node(): NetNode | undefined {
    return this.#node;
  }

  /** The `net` block of `/status`. */
  status(): NetStatusBlock {
    return structuredClone(this.#status);
  }

  /** Starts the service in the background. */
  start(): void {
    if (this.#node === undefined || this.#loop !== undefined) return;
    this.#loop = this.#run().catch((error) => {
      // Never reaches the hub: the service is simply over.
      this.#fail(`stopped: ${errorMessage(error)}`);
    });
    // What a crash or an unreachable peer left in the outbox goes out now and on retry.
    void this.flushOutbox();
    this.#digest?.start().catch((error) => {
      this.#node!.logger.warn(`network: the digest could not start: ${errorMessage(error)}`);
    });
    this.#outboxTimer = setInterval(() => void this.flushOutbox(), this.#timings.outboxMs);
  }

  /** Stops the service and waits for it. */
  async stop(): Promise<void> {
    this.#stop.abort();
    clearInterval(this.#outboxTimer);
    const digest = this.#digest?.stop();
    await this.#loop;
    await this.#fetching?.catch(() => {});
    await this.#flushing?.catch(() => {});
    await digest;
  }

  /** Posts what the outbox holds that is due, now (and every half minute while running). */
  flushOutbox(): Promise<void> {
    const node = this.#node;
    if (node === undefined || this.#flushing !== undefined) {
      return this.#flushing ?? Promise.resolve();
    }
    this.#flushing = flushOutbox(node).then(({ waiting }) => {
      this.#status.outbox = waiting;
    }).catch((error) => {
      node.logger.warn(`network: the outbox could not be flushed: ${errorMessage(error)}`);
    }).finally(() => {
      this.#flushing = undefined;
    });
    return this.#flushing;
  }

  get #stopped(): boolean {
    return this.#stop.signal.aborted || this.#status.state === "failed";
  }

  async #run(): Promise<void> {
    await this.#startup();
    if (this.#stopped) return;
    const setting = this.#status.doorbell.setting;
    if (setting === "poll") {
      await this.#pollUntil(Infinity);
      return;
    }
    await this.#doorbellLoop(setting === "auto");
  }

  /** Learns the address and publishes the card; retries with backoff. */
  async #startup(): Promise<void> {
    const node = this.#node!;
    for (let attempt = 0; !this.#stopped; attempt++) {
      try {
        this.#status.address = await node.address(this.#stop.signal);
        await node.publish(this.#stop.signal);
        this.#status.ready = true;
        return;
      } catch (error) {
        if (this.#unauthorized(error)) return;
        this.#status.doorbell.last_error = errorMessage(error);
        node.logger.warn(`network: spine not ready: ${errorMessage(error)}`);
        await this.#sleep(this.#backoff(attempt, error));
      }
    }
  }

  async #doorbellLoop(fallback: boolean): Promise<void> {
    let failed = 0;
    while (!this.#stopped) {
      this.#status.link = "websocket";
      const result = await this.#connectOnce();
      if (this.#stopped) return;
      if (result.status === 401) {
        this.#fail("the spine refused the token (401)");
        return;
      }
      if (fallback && !result.opened && (result.status === 404 || result.status === 426)) {
        await this.#fallBack();
        failed = 0;
        continue;
      }
      if (result.opened && result.lastedMs >= this.#timings.stableMs) {
        failed = 0;
        continue;
      }
      failed++;
      if (fallback && failed >= 3) {
        await this.#fallBack();
        failed = 0;
        continue;
      }
      await this.#sleep(this.#backoff(failed - 1));
      await this.#fetchUntilDone();
    }
  }

  async #fallBack(): Promise<void> {
    const retryAt = Date.now() + this.#timings.doorbellRetryMs;
    this.#status.doorbell.fallbacks++;
    this.#status.doorbell.retry_at = new Date(retryAt).toISOString();
    this.#status.link = "poll";
    this.#node!.logger.warn(
      `network: doorbell unavailable (${
        this.#status.doorbell.last_error ?? "?"
      }); long-polling, doorbell retried at ${this.#status.doorbell.retry_at}`,
    );
    await this.#pollUntil(retryAt);
    delete this.#status.doorbell.retry_at;
  }

  /** Long-polls until `until` (epoch ms) or stop. */
  async #pollUntil(until: number): Promise<void> {
    this.#status.link = "poll";
    let errors = 0;
    while (!this.#stopped && Date.now() < until) {
      try {
        const waitS = Math.max(
          0,
          Math.min(
            this.#timings.pollTimeoutSeconds,
            // The spine refuses a wait above 25 s (400, never clamped); agent.toml allows 60.
            SPINE_MAX_WAIT_S,
            Math.ceil((until - Date.now()) / 1000),
          ),
        );
        await this.#fetch(waitS);
        errors = 0;
      } catch (error) {
        if (this.#unauthorized(error) || this.#stop.signal.aborted) return;
        this.#status.doorbell.last_error = errorMessage(error);
        this.#node!.logger.warn(`network: fetch failed: ${errorMessage(error)}`);
        await this.#sleep(this.#backoff(errors++, error));
      }
    }
  }

  /** Fetches over HTTP until one fetch works (an unreachable spine is no failed attempt). */
  async #fetchUntilDone(): Promise<void> {
    for (let attempt = 0; !this.#stopped; attempt++) {
      try {
        await this.#fetch(0);
        return;
      } catch (error) {
        if (this.#unauthorized(error) || this.#stop.signal.aborted) return;
        this.#status.doorbell.last_error = errorMessage(error);
        await this.#sleep(this.#backoff(attempt, error));
      }
    }
  }

  /** One doorbell connection, from open to close. */
  async #connectOnce(): Promise<{ opened: boolean; lastedMs: number; status?: number }> {
    const node = this.#node!;
    const t = this.#timings;
    const end = await ringDoorbell({
      url: node.spine.wsUrl,
      headers: node.spine.authHeaders,
      pingMs: t.pingMs,
      dropMs: t.dropMs,
      safetyFetchMs: t.safetyFetchMs,
      signal: this.#stop.signal,
      probe: () => node.spine.probeDoorbell(this.#stop.signal),
      onOpen: () => {
        this.#status.doorbell.connects++;
        if (this.#status.doorbell.connects > 1) this.#status.doorbell.reconnects++;
      },
      onRing: (counted) => this.#ring(counted),
    });
    if (end.error !== undefined) this.#status.doorbell.last_error = end.error;
    return end.status === undefined
      ? { opened: end.opened, lastedMs: end.lastedMs }
      : { opened: end.opened, lastedMs: end.lastedMs, status: end.status };
  }

  /** A doorbell message (or the safety timer): fetch with `timeout=0`, coalesced. */
  #ring(counted: boolean): void {
    if (counted) {
      this.#status.doorbell.rings++;
      this.#status.doorbell.last_ring_at = new Date().toISOString();
    }
    this.fetchSoon();
  }

  /** Starts a `timeout=0` fetch now, or once more after the running one. */
  fetchSoon(): void {
    if (this.#fetching !== undefined) {
      this.#again = true;
      return;
    }
    this.#fetching = (async () => {
      do {
        this.#again = false;
        try {
          await this.#fetch(0);
        } catch (error) {
          if (this.#unauthorized(error) || this.#stop.signal.aborted) break;
          this.#status.doorbell.last_error = errorMessage(error);
          this.#node!.logger.warn(`network: fetch failed: ${errorMessage(error)}`);
          // The next ring or the safety fetch tries again.
        }
      } while (this.#again && !this.#stopped);
    })().finally(() => {
      this.#fetching = undefined;
    });
  }

  /**
   * Handles what the spine holds now, batch after batch, without keeping a link open
   * (`agent net poll --once`); returns how many updates were handled and dropped.
   * Spine errors are thrown.
   */
  async pollOnce(): Promise<{ handled: number; dropped: number }> {
    if (this.#deps === undefined) {
      throw new Error(`Cannot poll: the network is not configured (${this.#status.detail ?? ""})`);
    }
    const { handled, dropped } = this.#status;
    await this.#deps.node.address();
    await this.#fetch(0);
    return { handled: this.#status.handled - handled, dropped: this.#status.dropped - dropped };
  }

  /** Fetches and handles until a batch is not full. */
  async #fetch(timeoutS: number): Promise<void> {
    // One fetch at a time: a ring's fetch may still run when the doorbell closes and
    // the HTTP fetch starts; handling the same envelope twice would run two turns.
    const previous = this.#fetchLock;
    let release!: () => void;
    this.#fetchLock = new Promise<void>((r) => release = r);
    await previous;
    try {
      await this.#fetchBatches(timeoutS);
    } finally {
      release();
    }
  }

  async #fetchBatches(timeoutS: number): Promise<void> {
    let wait = timeoutS;
    while (!this.#stopped) {
      const n = await fetchAndHandle(this.#deps!, {
        timeout: wait,
        signal: this.#stop.signal,
        onHandled: (result, update) => {
          if (result.outcome === "handled") this.#status.handled++;
          else this.#status.dropped++;
          this.#onHandled?.(result, update);
        },
      });
      if (n < FETCH_BATCH) return;
      wait = 0;
    }
  }

  #unauthorized(error: unknown): boolean {
    if (error instanceof SpineError && error.status === 401) {
      this.#fail("the spine refused the token (401)");
      return true;
    }
    return false;
  }

  #fail(detail: string): void {
    if (this.#status.state === "failed") return;
    this.#status.state = "failed";
    this.#status.detail = detail;
    this.#node?.logger.error(
      `network: service failed: ${detail}; fix AGENT_SPINE_TOKEN and restart the hub`,
    );
    this.#stop.abort();
  }

  /** The wait before retry `attempt`; a `Retry-After` the spine sent is kept to. */
  #backoff(attempt: number, error?: unknown): number {
    return backoffDelay(attempt, {
      baseMs: this.#timings.backoffBaseMs,
      maxMs: this.#timings.backoffMaxMs,
      retryAfterMs: error instanceof SpineError ? error.retryAfterMs : undefined,
    });
  }

  #sleep(ms: number): Promise<void> {
    return pause(ms, this.#stop.signal);
  }
}

/** Options for {@linkcode fetchAndHandle}. */
export interface FetchOptions {
  /** Long-poll wait in seconds. @default 0 */
  timeout?: number;
  signal?: AbortSignal;
  onHandled?: NetServiceOptions["onHandled"];
}

/**
 * One fetch from `after=0`: handles every update in order, then acknowledges them all
 * and records the last seq taken. Returns how many updates came.
 */
export async function fetchAndHandle(
  deps: HandleDeps,
  options: FetchOptions = {},
): Promise<number> {
  const { node } = deps;
  const updates = await node.spine.updates(0, {
    timeout: options.timeout ?? 0,
    limit: FETCH_BATCH,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (updates.length === 0) return 0;
  const seqs: number[] = [];
  for (const update of updates) {
    const result = await handleUpdate(deps, update);
    seqs.push(update.seq);
    options.onHandled?.(result, update);
  }
  await node.spine.ack(seqs, options.signal);
  await node.state.setCursor(Math.max(...seqs));
  return updates.length;
}
