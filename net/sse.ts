/**
 * The one server-sent-events writer of every surface that streams (the control API's
 * `GET /events`, the dashboard's owner events and its desk stream for the web chat).
 * Each event carries an id, so a client that lost the line comes back with
 * `Last-Event-ID` and is sent what it missed ({@linkcode EventReplay} keeps the recent
 * events of a source that has no history of its own). A client that reads slower than
 * events come is not buffered without end: once more than `maxBehindBytes` wait unsent,
 * its stream ends and it resumes from its last id. A comment every `heartbeatMs` keeps
 * proxies from closing a quiet line and finds a client that went away. Web APIs only.
 *
 * @example
 * ```ts
 * import { sseResponse } from "./sse.ts";
 * const res = sseResponse((out) => {
 *   out.send({ id: "1", data: "hello" });
 *   out.close();
 * });
 * const text = await res.text();
 * if (!text.includes("id: 1\ndata: hello\n\n")) throw new Error(text);
 * ```
 *
 * @module
 */
import { HttpError } from "./http.ts";

/** One event. */
export interface SseEvent {
  /** Where a client resumes from (`Last-Event-ID`). */
  id?: string;
  /** The event's name (`event:`); without one a browser's `onmessage` gets it. */
  event?: string;
  /** The data; a newline in it becomes several `data:` lines. */
  data: string;
}

/** Writes a stream's events. */
export interface SseWriter {
  /** Queues an event; `false` once the stream has ended. */
  send(event: SseEvent): boolean;
  /** Queues a comment line (`: text`), which a client ignores. */
  comment(text: string): boolean;
  /**
   * Names where the client stands (`id:` with no data): a client that asked for new
   * events only resumes from here after a drop, not from whatever is new then.
   */
  mark(id: string): boolean;
  /** Ends the stream. */
  close(): void;
  /** Aborted when the stream ends: the client left, it fell behind, or it was closed. */
  readonly signal: AbortSignal;
}

/** Options for {@linkcode sseResponse}. */
export interface SseOptions {
  /** Ends the stream (the server stops). */
  signal?: AbortSignal;
  /** A `: ping` comment this often. @default 15000 */
  heartbeatMs?: number;
  /** The reconnection delay told to the client (`retry:`). @default 2000 */
  retryMs?: number;
  /**
   * Unsent bytes past which a client counts as too slow: its stream ends and it comes
   * back from its last id. @default 1048576 (1 MiB)
   */
  maxBehindBytes?: number;
}

/** The default heartbeat interval. */
export const SSE_HEARTBEAT_MS = 15_000;

const ENCODER = new TextEncoder();

/**
 * A `text/event-stream` response. `start` writes the first events and subscribes to
 * more; what it returns runs once when the stream ends (to unsubscribe).
 */
export function sseResponse(
  start: (out: SseWriter) => (() => void) | void,
  options: SseOptions = {},
): Response {
  const ended = new AbortController();
  const maxBehind = options.maxBehindBytes ?? 1 << 20;
  let cleanup: (() => void) | void;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const finish = () => {
    if (ended.signal.aborted) return;
    ended.abort();
    clearInterval(heartbeat);
    options.signal?.removeEventListener("abort", stopStream);
    try {
      cleanup?.();
    } catch { /* a failing unsubscribe ends nothing more */ }
  };
  let stopStream = finish;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (text: string): boolean => {
        if (ended.signal.aborted) return false;
        controller.enqueue(ENCODER.encode(text));
        // Back-pressure: the queue's unsent bytes, counted by the strategy below.
        if ((controller.desiredSize ?? 0) < -maxBehind) {
          stopStream();
          return false;
        }
        return true;
      };
      stopStream = () => {
        if (ended.signal.aborted) return;
        finish();
        try {
          controller.close();
        } catch { /* already closed */ }
      };
      const out: SseWriter = {
        send: (event) => write(frame(event)),
        comment: (text) => write(`: ${text.replace(/[\r\n]+/g, " ")}\n\n`),
        mark: (id) => write(`id: ${oneLine(id)}\n\n`),
        close: () => stopStream(),
        signal: ended.signal,
      };
      // The first bytes go out at once, so the client knows it is connected.
      write(`: connected\nretry: ${options.retryMs ?? 2000}\n\n`);
      cleanup = start(out);
      if (ended.signal.aborted) {
        // Ended while starting (closed at once, or behind already): unsubscribe now.
        try {
          cleanup?.();
        } catch { /* nothing more to end */ }
        return;
      }
      heartbeat = setInterval(() => write(": ping\n\n"), options.heartbeatMs ?? SSE_HEARTBEAT_MS);
      options.signal?.addEventListener("abort", stopStream, { once: true });
      if (options.signal?.aborted) stopStream();
    },
    cancel() {
      // The client went away.
      finish();
    },
  }, new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }));
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-accel-buffering": "no",
    },
  });
}

/** One event in the wire format. */
export function frame(event: SseEvent): string {
  let text = "";
  if (event.id !== undefined) text += `id: ${oneLine(event.id)}\n`;
  if (event.event !== undefined) text += `event: ${oneLine(event.event)}\n`;
  for (const line of event.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return `${text}\n`;
}

function oneLine(text: string): string {
  return text.replace(/[\r\n\0]/g, "");
}

/**
 * The id a client resumes after: the `Last-Event-ID` header, else `?after=` (a client
 * that cannot set headers); `undefined` for a client that wants new events only.
 */
export function lastEventId(request: Request, url: URL): string | undefined {
  const header = request.headers.get("last-event-id")?.trim();
  const value = header ? header : url.searchParams.get("after")?.trim();
  return value === undefined || value === "" ? undefined : value;
}

/** Options for {@linkcode EventReplay}. */
export interface EventReplayOptions {
  /** How many recent events are kept for clients that come back. @default 1000 */
  keep?: number;
}

/** A recent event of an {@linkcode EventReplay}. */
export interface ReplayedEvent {
  id: string;
  data: string;
  event?: string;
}

/**
 * Numbers the events of a source that keeps no history (the desk's) and keeps the most
 * recent ones, so a stream can resume after `Last-Event-ID`. Ids are `<epoch>-<n>`: a
 * client's id from before a restart is recognised as foreign, not mistaken for a later
 * event.
 */
export class EventReplay {
  #events: ReplayedEvent[] = [];
  #keep: number;
  #epoch: string;
  #next = 1;
  #listeners = new Set<(event: ReplayedEvent) => void>();

  constructor(options: EventReplayOptions = {}) {
    this.#keep = options.keep ?? 1000;
    this.#epoch = Date.now().toString(36);
  }

  /** Numbers `data`, keeps it, and hands it to every subscriber. */
  push(data: string, event?: string): ReplayedEvent {
    const entry: ReplayedEvent = {
      id: `${this.#epoch}-${this.#next++}`,
      data,
      ...(event === undefined ? {} : { event }),
    };
    this.#events.push(entry);
    if (this.#events.length > this.#keep) this.#events.splice(0, this.#events.length - this.#keep);
    for (const listener of [...this.#listeners]) {
      try {
        listener(entry);
      } catch { /* one subscriber's failure is not the others' */ }
    }
    return entry;
  }

  /** The id of the latest event, for a client that asked for new ones only. */
  lastId(): string | undefined {
    return this.#events.at(-1)?.id;
  }

  /**
   * The events after `id`: all kept when `id` is `""`; `undefined` when `id` is not one
   * of this replay's (another process's, or trimmed since): the client starts afresh.
   */
  after(id: string): ReplayedEvent[] | undefined {
    if (id === "") return [...this.#events];
    const [epoch, n] = id.split("-");
    if (epoch !== this.#epoch || !/^\d+$/.test(n ?? "")) return undefined;
    const seq = Number(n);
    const first = this.#events[0];
    if (seq >= this.#next) return undefined;
    if (first !== undefined && seq < Number(first.id.split("-")[1]) - 1) return undefined;
    return this.#events.filter((e) => Number(e.id.split("-")[1]) > seq);
  }

  /** Calls `listener` with each event pushed from now on; returns the unsubscribe. */
  subscribe(listener: (event: ReplayedEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * A stream of this replay's events: those after the request's `Last-Event-ID` (a
   * `: reset` comment first when that id is not known, so the client reloads its
   * state), then live ones.
   */
  response(request: Request, url: URL, options: SseOptions = {}): Response {
    const after = lastEventId(request, url);
    if (after !== undefined && after.length > 64) {
      throw new HttpError(400, "bad_request", { detail: "Last-Event-ID: too long" });
    }
    return sseResponse((out) => {
      if (after !== undefined) {
        const missed = this.after(after);
        if (missed === undefined) out.comment("reset: the events after that id are not kept");
        for (const e of missed ?? []) out.send(e);
      } else {
        // The client learns where "now" is, and resumes from there after a drop.
        const last = this.lastId();
        if (last !== undefined) out.mark(last);
      }
      return this.subscribe((e) => {
        out.send(e);
      });
    }, options);
  }
}
