/**
 * Server-sent events read with `fetch`, so each request carries the session header: an
 * `EventSource` can send nothing but cookies, and the dashboard has none. It reads the
 * `text/event-stream` format (`id:`, `event:`, `data:`, `retry:`, comments), and after
 * a drop connects again with `Last-Event-ID`, so the hub sends what was missed.
 *
 * @module
 */
import { ApiError, getRaw } from "./api.ts";

/** One event of the stream. */
export interface StreamEvent {
  /** `event:`, `message` when the hub named none. */
  type: string;
  data: string;
  /** `id:`, when the event had one. */
  id: string | undefined;
}

/** Options for {@linkcode followStream}. */
export interface FollowOptions {
  /** The hub no longer knows the session (401): the stream stops. */
  onUnauthorized?(): void;
  /**
   * The hub no longer has the events after the last id (it restarted, or they were
   * trimmed): what the page shows may have missed some, so it is drawn again.
   */
  onReset?(): void;
}

/**
 * Follows `<base>/api/<path>` until the returned function is called, handing each
 * event to `onEvent`; connects again after a drop.
 */
export function followStream(
  path: string,
  onEvent: (event: StreamEvent) => void,
  options: FollowOptions = {},
): () => void {
  const stop = new AbortController();
  let lastId: string | undefined;
  let retryMs = 2000;
  const run = async () => {
    while (!stop.signal.aborted) {
      try {
        const res = await getRaw(path, {
          signal: stop.signal,
          headers: lastId === undefined ? {} : { "last-event-id": lastId },
        });
        const parser = new EventParser(onEvent, (ms) => retryMs = ms, (text) => {
          if (/^(reset|truncated)\b/.test(text)) options.onReset?.();
        });
        const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          parser.push(value);
          lastId = parser.lastId ?? lastId;
        }
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) {
          options.onUnauthorized?.();
          return;
        }
      }
      if (stop.signal.aborted) return;
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  };
  void run();
  return () => stop.abort();
}

/** The `text/event-stream` format, fed in chunks of any size. */
export class EventParser {
  #buffer = "";
  #data: string[] = [];
  #type = "";
  #id: string | undefined;
  #onEvent: (event: StreamEvent) => void;
  #onRetry: (ms: number) => void;
  #onComment: (text: string) => void;

  constructor(
    onEvent: (event: StreamEvent) => void,
    onRetry: (ms: number) => void = () => {},
    onComment: (text: string) => void = () => {},
  ) {
    this.#onEvent = onEvent;
    this.#onRetry = onRetry;
    this.#onComment = onComment;
  }

  /** The last `id:` seen (with or without data: a hub names where "now" is that way). */
  get lastId(): string | undefined {
    return this.#id;
  }

  /** Takes the next chunk of text. */
  push(chunk: string): void {
    this.#buffer += chunk;
    for (;;) {
      const end = this.#buffer.search(/\r\n|\r|\n/);
      // A lone `\r` at the end may be the first half of `\r\n`.
      if (end === -1 || (end === this.#buffer.length - 1 && this.#buffer.endsWith("\r"))) return;
      const line = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + (this.#buffer.startsWith("\r\n", end) ? 2 : 1));
      this.#line(line);
    }
  }

  #line(line: string): void {
    if (line === "") {
      if (this.#data.length > 0) {
        this.#onEvent({ type: this.#type || "message", data: this.#data.join("\n"), id: this.#id });
      }
      this.#data = [];
      this.#type = "";
      return;
    }
    if (line.startsWith(":")) return this.#onComment(line.slice(1).trim());
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.#data.push(value);
    else if (field === "event") this.#type = value;
    else if (field === "id" && !value.includes("\0")) this.#id = value;
    else if (field === "retry" && /^\d+$/.test(value)) this.#onRetry(Number(value));
  }
}
