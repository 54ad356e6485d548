/**
 * `GET /events` on the control API: the owner-event bus as server-sent events, so a
 * process outside the hub (the TUI, chat, a dashboard) hears an event as it happens
 * instead of polling. Each event is
 *
 * ```text
 * id: <event_id>
 * event: <type>
 * data: <the event as JSON>
 * ```
 *
 * A client resumes with `Last-Event-ID` (or `?after=<id>`; `0` for all that is kept)
 * and gets exactly the events after it. A comment `: ping` comes every 15 s so proxies
 * keep the line open and a dead client is noticed; `: truncated` says that events
 * after the client's id were trimmed from the history before it came back.
 *
 * @module
 */
import { HttpError } from "@agent/net";
import {
  type EventSubscription,
  isEventId,
  type OwnerEvent,
  type OwnerEventFeed,
} from "../events/mod.ts";

/** The heartbeat interval. */
export const EVENTS_HEARTBEAT_MS = 15_000;

/** A client this far behind (unsent bytes) is dropped; it resumes from its last id. */
const BEHIND_MAX = 1 << 20;

/** Options for {@linkcode eventStreamResponse}. */
export interface EventStreamOptions {
  /** Ends the stream (the hub stops). */
  signal?: AbortSignal;
  /** @default {@linkcode EVENTS_HEARTBEAT_MS} */
  heartbeatMs?: number;
  /**
   * Name each frame after its event's type (`event: <type>`); without names every event
   * reaches a browser's `EventSource.onmessage`, whatever types come later (the
   * dashboard). @default true
   */
  named?: boolean;
}

/**
 * Where a stream resumes: the `Last-Event-ID` header, else `?after=`; `undefined` for
 * live events only. Throws a 400 for something that is not an event id.
 */
export function resumeFrom(request: Request, url: URL): string | undefined {
  const header = request.headers.get("last-event-id")?.trim();
  const value = header ? header : url.searchParams.get("after")?.trim();
  if (value === undefined || value === "") return undefined;
  if (value === "0") return "";
  if (!isEventId(value)) {
    throw new HttpError(400, "bad_request", {
      detail: "Last-Event-ID: not an event id (<13 digits>-<6 digits>)",
    });
  }
  return value;
}

/** The `text/event-stream` response for `GET /events`. */
export function eventStreamResponse(
  feed: OwnerEventFeed,
  after: string | undefined,
  options: EventStreamOptions = {},
): Response {
  const encoder = new TextEncoder();
  let open = true;
  let subscription: EventSubscription | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const cleanup = () => {
    open = false;
    clearInterval(heartbeat);
    subscription?.close();
    options.signal?.removeEventListener("abort", end);
  };
  let end = cleanup;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        if (!open) return;
        controller.enqueue(encoder.encode(text));
        if ((controller.desiredSize ?? 0) < -BEHIND_MAX) end();
      };
      end = () => {
        if (!open) return;
        cleanup();
        controller.close();
      };
      // The first bytes go out at once, so the client knows it is connected. A client
      // that asked for new events only learns where "now" is, so that after a drop it
      // resumes from there rather than from whatever is new then.
      send(": connected\nretry: 2000\n\n");
      if (after === undefined) send(`id: ${feed.lastId() ?? "0"}\n\n`);
      const named = options.named ?? true;
      subscription = feed.subscribe((event) => send(named ? frame(event) : unnamed(event)), {
        ...(after === undefined ? {} : { after }),
        onTruncated: () =>
          send(": truncated: some events after the given id are no longer kept\n\n"),
        onClose: () => end(),
      });
      // Ended while the history was sent (too far behind).
      if (!open) return cleanup();
      heartbeat = setInterval(() => send(": ping\n\n"), options.heartbeatMs ?? EVENTS_HEARTBEAT_MS);
      options.signal?.addEventListener("abort", end, { once: true });
      if (options.signal?.aborted) end();
    },
    cancel() {
      // The client went away.
      cleanup();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-accel-buffering": "no",
    },
  });
}

/** One event in the wire format (JSON has no raw newline, so `data` is one line). */
export function frame(event: OwnerEvent): string {
  return `id: ${event.event_id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

function unnamed(event: OwnerEvent): string {
  return `id: ${event.event_id}\ndata: ${JSON.stringify(event)}\n\n`;
}
