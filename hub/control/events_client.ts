/**
 * {@linkcode subscribeHubEvents}: how a process outside the hub (the TUI, chat, a
 * dashboard) listens to the hub's owner events over the control API's `GET /events`.
 * It parses the server-sent events, and when the line drops (the hub restarts, a
 * proxy cuts it) it reconnects with backoff and resumes after the last id it saw, so
 * no event is lost and none comes twice.
 *
 * @module
 */
import { backoffDelay, pause } from "../backoff.ts";
import type { OwnerEvent } from "../events/mod.ts";
import { bearerHeaders, readHubToken } from "./token.ts";

/** Options for {@linkcode subscribeHubEvents}. */
export interface SubscribeHubEventsOptions {
  /** Resume after this id (the last one the caller handled); without it, new events only. */
  lastEventId?: string;
  /** Stops listening; the returned promise then resolves. */
  signal: AbortSignal;
  /** Each event, in order, once. What it throws ends the subscription (rejects). */
  onEvent(event: OwnerEvent): void;
  /** The stream is open (after each connect). */
  onOpen?(): void;
  /** Events after the id asked for were trimmed from the hub's history before they were read. */
  onTruncated?(): void;
  /** A connection failed or dropped; the client retries after `retryInMs`. */
  onError?(error: Error, retryInMs: number): void;
  /**
   * `<data>/hub.token`, read at each connect (a restarted hub has a new token) and sent
   * as `Authorization: Bearer`; without it the hub answers 401.
   */
  tokenFile?: string;
  /** The control API's host. @default "127.0.0.1" */
  host?: string;
  /** First wait before a reconnect; doubles to `maxRetryMs`. @default 250 */
  retryMs?: number;
  /** @default 10000 */
  maxRetryMs?: number;
}

/** The hub refused the stream (a bad id, no event bus, a refused host): retrying cannot help. */
export class HubEventsError extends Error {
  override name = "HubEventsError";
  /** The HTTP status. */
  status: number;

  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

/**
 * Listens to the hub on `127.0.0.1:<port>` until `signal` aborts. Resolves then;
 * rejects with a {@linkcode HubEventsError} when the hub answers 4xx (retrying would
 * not help). Everything else (refused, dropped, 5xx) is retried with backoff.
 *
 * @example
 * ```ts ignore
 * import { subscribeHubEvents } from "./events_client.ts";
 * const stop = new AbortController();
 * await subscribeHubEvents(8790, {
 *   signal: stop.signal,
 *   onEvent: (event) => console.log(event.type, event.text),
 * });
 * ```
 */
export async function subscribeHubEvents(
  port: number,
  options: SubscribeHubEventsOptions,
): Promise<void> {
  const { signal } = options;
  let lastId = options.lastEventId;
  let failures = 0;
  while (!signal.aborted) {
    let error: Error;
    try {
      const token = options.tokenFile === undefined
        ? undefined
        : await readHubToken(options.tokenFile);
      const headers: Record<string, string> = {
        accept: "text/event-stream",
        ...bearerHeaders(token),
      };
      if (lastId !== undefined) headers["last-event-id"] = lastId;
      const res = await fetch(`http://${options.host ?? "127.0.0.1"}:${port}/events`, {
        headers,
        signal,
      });
      if (res.status >= 400 && res.status < 500) {
        const body = await res.text().catch(() => "");
        throw new HubEventsError(
          `Cannot listen to the hub's events: it answered ${res.status} ${body.trim()}`.trim(),
          res.status,
        );
      }
      if (!res.ok || res.body === null) {
        await res.body?.cancel();
        throw new Error(`the hub answered ${res.status}`);
      }
      failures = 0;
      options.onOpen?.();
      await readStream(res.body, {
        onEvent(id, data) {
          if (id !== undefined) lastId = id;
          if (data === undefined) return; // an id alone: where the stream stands
          let event: OwnerEvent;
          try {
            event = JSON.parse(data);
          } catch {
            return; // not ours: skip it
          }
          try {
            options.onEvent(event);
          } catch (error) {
            throw new ListenerError(error);
          }
        },
        onComment(text) {
          if (text.startsWith(" truncated")) options.onTruncated?.();
        },
      });
      error = new Error("the hub closed the stream");
    } catch (caught) {
      if (signal.aborted) break;
      if (caught instanceof HubEventsError) throw caught;
      if (caught instanceof ListenerError) throw caught.cause;
      error = caught instanceof Error ? caught : new Error(String(caught));
    }
    const wait = backoffDelay(failures++, {
      baseMs: options.retryMs ?? 250,
      maxMs: options.maxRetryMs ?? 10_000,
    });
    options.onError?.(error, wait);
    await pause(wait, signal);
  }
}

/** What `onEvent` threw: it ends the subscription rather than being retried. */
class ListenerError extends Error {
  override name = "ListenerError";
  constructor(cause: unknown) {
    super("onEvent threw", { cause });
  }
}

interface StreamHandlers {
  /** A dispatch: the id as it stands, and the data (`undefined` for an id alone). */
  onEvent(id: string | undefined, data: string | undefined): void;
  onComment(text: string): void;
}

/**
 * Reads a `text/event-stream` body to its end, as the HTML standard's parser does:
 * lines end in CR, LF or CRLF; a blank line dispatches; `data` lines join with LF; an
 * `id` is kept for the following events.
 */
async function readStream(body: ReadableStream<Uint8Array>, on: StreamHandlers): Promise<void> {
  let buffer = "";
  let data: string[] = [];
  let id: string | undefined;
  let sawData = false;
  const line = (text: string) => {
    if (text === "") {
      on.onEvent(id, sawData ? data.join("\n") : undefined);
      data = [];
      sawData = false;
      return;
    }
    if (text.startsWith(":")) return on.onComment(text.slice(1));
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      data.push(value);
      sawData = true;
    } else if (field === "id" && !value.includes("\0")) {
      id = value;
    }
  };
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (!done) buffer += decoder.decode(value, { stream: true });
      let at: number;
      while ((at = buffer.search(/\r\n|\r|\n/)) !== -1) {
        // A CR at the very end may be the first half of a CRLF still on its way.
        if (!done && buffer[at] === "\r" && at === buffer.length - 1) break;
        const size = buffer.startsWith("\r\n", at) ? 2 : 1;
        line(buffer.slice(0, at));
        buffer = buffer.slice(at + size);
      }
      // What is left after the last line end is an event cut off: dropped.
      if (done) break;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
