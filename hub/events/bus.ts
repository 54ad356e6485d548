/**
 * The owner-event bus: the one stream of owner events in the hub. Writers in the hub
 * {@linkcode OwnerEventBus.publish} (the event is appended to the events file first,
 * then every subscriber hears it synchronously); channels and the control API's
 * `GET /events` {@linkcode OwnerEventBus.subscribe}, optionally from an id they saw
 * last: the history after it, then the live events, in id order, with no gap and no
 * duplicate at the seam.
 *
 * Processes other than the hub (`agent net poll --once`, CLI commands) append to the
 * file themselves; while anyone listens the bus watches the network folder and passes
 * on the lines it did not write, in the same order.
 *
 * @module
 */
import { errorMessage } from "@agent/net/common";
import type { Logger } from "../log.ts";
import { appendEvents, readEventLog } from "./log.ts";
import { EVENTS_MAX, type NetEvent, type OwnerEvent, type OwnerEventSink } from "./types.ts";

/** Options for {@linkcode OwnerEventBus.open}. */
export interface OwnerEventBusOptions {
  /** Where a listener that throws, or a file that cannot be read, is told. */
  logger?: Logger;
  /**
   * Watch the folder for lines other processes append, while anyone listens.
   * @default true
   */
  watch?: boolean;
  /** @default Date.now */
  now?: () => number;
}

/** Options for {@linkcode OwnerEventBus.subscribe}. */
export interface SubscribeOptions {
  /**
   * Deliver the kept events after this id first (`""` for all that are kept); without
   * it, only events published from now on.
   */
  after?: string;
  /**
   * Called (before the history) when `after` is older than the oldest event kept and
   * the history has been trimmed since: some events after it are gone, the listener
   * gets all that are left.
   */
  onTruncated?(): void;
  /** Called once when the bus closes (not when the subscription is closed by its owner). */
  onClose?(): void;
}

/** A listener's registration. */
export interface EventSubscription {
  /** Stops delivery (idempotent). */
  close(): void;
}

/** What a reader of the stream needs (the control API's `GET /events`). */
export interface OwnerEventFeed {
  /** The newest event's id, if any. */
  lastId(): string | undefined;
  /** See {@linkcode OwnerEventBus.subscribe}. */
  subscribe(listener: (event: OwnerEvent) => void, options?: SubscribeOptions): EventSubscription;
}

interface Subscriber {
  listener: (event: OwnerEvent) => void;
  /** The newest id this subscriber has been given (or asked to start after). */
  cursor: string | undefined;
  onClose: (() => void) | undefined;
}

/** The history kept in memory: as much as the file can hold before it is trimmed. */
const HISTORY_MAX = EVENTS_MAX + 50;

/** The owner-event bus of one network folder. */
export class OwnerEventBus implements OwnerEventSink, OwnerEventFeed {
  readonly netDir: string;
  #logger: Logger | undefined;
  #watchFiles: boolean;
  #now: () => number;
  #history: OwnerEvent[] = [];
  /** Whether events older than the history's first were ever dropped. */
  #trimmed = false;
  #last: string | undefined;
  #subscribers = new Set<Subscriber>();
  /** Publishes and reads of the file, one at a time, so delivery stays in file order. */
  #chain: Promise<unknown> = Promise.resolve();
  #watcher: Deno.FsWatcher | undefined;
  #watching: Promise<void>[] = [];
  #rescan = false;
  #scanning: Promise<void> | undefined;
  #closed = false;

  private constructor(netDir: string, options: OwnerEventBusOptions) {
    this.netDir = netDir;
    this.#logger = options.logger;
    this.#watchFiles = options.watch ?? true;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Opens the bus on `netDir` (the folder of `events.jsonl`), with the file's events as
   * its history.
   *
   * @example
   * ```ts
   * import { OwnerEventBus } from "./bus.ts";
   * const dir = await Deno.makeTempDir();
   * const bus = await OwnerEventBus.open(dir, { watch: false });
   * const heard: string[] = [];
   * bus.subscribe((event) => heard.push(event.type));
   * await bus.publish({ ts: 1, type: "model.failover", role: "brain", stand_in: "fast", text: "" });
   * await bus.close();
   * await Deno.remove(dir, { recursive: true });
   * if (heard[0] !== "model.failover") throw new Error();
   * ```
   */
  static async open(netDir: string, options: OwnerEventBusOptions = {}): Promise<OwnerEventBus> {
    const bus = new OwnerEventBus(netDir, options);
    let events: OwnerEvent[] = [];
    try {
      events = await readEventLog(netDir);
    } catch (error) {
      // The hub starts without its history rather than not at all; writing will say more.
      options.logger?.warn(`events: cannot read the events file: ${errorMessage(error)}`);
    }
    bus.#trimmed = events.length >= EVENTS_MAX;
    for (const event of events) bus.#keep(event);
    return bus;
  }

  /** The newest event's id, if any. */
  lastId(): string | undefined {
    return this.#last;
  }

  /**
   * Appends the event to the file (durably), then tells every subscriber before it
   * returns; events other processes appended before it are told first, in order.
   */
  publish(event: NetEvent): Promise<OwnerEvent> {
    return this.#serial(async () => {
      const { before, appended } = await appendEvents(this.netDir, [event], { now: this.#now });
      for (const e of before) this.#deliver(e);
      for (const e of appended) this.#deliver(e);
      return appended[0]!;
    });
  }

  /**
   * Calls `listener` for each event after `options.after` that is kept (synchronously,
   * before this returns), then for every new one, in id order, each once.
   */
  subscribe(
    listener: (event: OwnerEvent) => void,
    options: SubscribeOptions = {},
  ): EventSubscription {
    const subscriber: Subscriber = {
      listener,
      cursor: options.after ?? this.#last,
      onClose: options.onClose,
    };
    if (this.#closed) {
      options.onClose?.();
      return { close() {} };
    }
    const after = options.after;
    if (after !== undefined) {
      const first = this.#history[0];
      if (first !== undefined && after < first.event_id && this.#trimmed) options.onTruncated?.();
      for (const event of this.#history) {
        if (event.event_id > after) this.#tell(subscriber, event);
      }
    }
    this.#subscribers.add(subscriber);
    this.#startWatching();
    return {
      close: () => {
        if (this.#subscribers.delete(subscriber) && this.#subscribers.size === 0) {
          this.#stopWatching();
        }
      },
    };
  }

  /** How many listen now. */
  get subscribers(): number {
    return this.#subscribers.size;
  }

  /**
   * Reads lines other processes appended and tells them (the watcher calls this; a test
   * or a caller without a watcher may too). Resolves once they are told.
   */
  refresh(): Promise<void> {
    return this.#serial(async () => {
      for (const event of await readEventLog(this.netDir)) this.#deliver(event);
    });
  }

  /**
   * Stops watching and ends every subscription (each hears `onClose`); waits for the
   * watcher and any read in progress. Publishing still appends to the file afterwards.
   */
  async close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      const subscribers = [...this.#subscribers];
      this.#subscribers.clear();
      this.#stopWatching();
      for (const s of subscribers) {
        try {
          s.onClose?.();
        } catch (error) {
          this.#logger?.warn(`events: a subscriber failed on close: ${errorMessage(error)}`);
        }
      }
    }
    await Promise.allSettled([...this.#watching, this.#scanning, this.#chain]);
  }

  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#chain.then(fn);
    this.#chain = run.catch(() => {});
    return run;
  }

  /** Keeps a new event in the history and tells the subscribers; an old one is ignored. */
  #deliver(event: OwnerEvent): void {
    if (this.#last !== undefined && event.event_id <= this.#last) return;
    this.#keep(event);
    for (const subscriber of [...this.#subscribers]) this.#tell(subscriber, event);
  }

  #keep(event: OwnerEvent): void {
    if (this.#last !== undefined && event.event_id <= this.#last) return;
    this.#history.push(event);
    this.#last = event.event_id;
    if (this.#history.length > HISTORY_MAX) {
      this.#history.splice(0, this.#history.length - HISTORY_MAX);
      this.#trimmed = true;
    }
  }

  #tell(subscriber: Subscriber, event: OwnerEvent): void {
    if (subscriber.cursor !== undefined && event.event_id <= subscriber.cursor) return;
    subscriber.cursor = event.event_id;
    try {
      subscriber.listener(event);
    } catch (error) {
      this.#logger?.warn(`events: a subscriber failed: ${errorMessage(error)}`);
    }
  }

  #startWatching(): void {
    if (!this.#watchFiles || this.#watcher !== undefined || this.#closed) return;
    let watcher: Deno.FsWatcher;
    try {
      // The folder appears with the first event; a listener may come before it.
      Deno.mkdirSync(this.netDir, { recursive: true, mode: 0o700 });
      watcher = Deno.watchFs(this.netDir, { recursive: false });
    } catch (error) {
      // No folder yet (nothing was ever written) or no watcher: publishing still works.
      this.#logger?.warn(`events: cannot watch ${this.netDir}: ${errorMessage(error)}`);
      return;
    }
    this.#watcher = watcher;
    const loop = (async () => {
      try {
        for await (const change of watcher) {
          if (change.paths.some((p) => p.endsWith("/events.jsonl"))) this.#scan();
        }
      } catch (error) {
        if (this.#watcher === watcher) {
          this.#logger?.warn(`events: the watcher stopped: ${errorMessage(error)}`);
        }
      }
    })();
    this.#watching.push(loop);
    loop.finally(() => this.#watching.splice(this.#watching.indexOf(loop), 1));
    // Lines appended before the watcher started are read now.
    this.#scan();
  }

  #stopWatching(): void {
    const watcher = this.#watcher;
    this.#watcher = undefined;
    try {
      watcher?.close();
    } catch { /* already closed */ }
  }

  /** One read at a time; changes seen during a read ask for one more. */
  #scan(): void {
    if (this.#closed) return;
    if (this.#scanning !== undefined) {
      this.#rescan = true;
      return;
    }
    this.#scanning = (async () => {
      do {
        this.#rescan = false;
        try {
          await this.refresh();
        } catch (error) {
          this.#logger?.warn(`events: cannot read the events file: ${errorMessage(error)}`);
        }
      } while (this.#rescan && !this.#closed);
      this.#scanning = undefined;
    })();
  }
}
