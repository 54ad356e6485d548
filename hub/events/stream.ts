/**
 * Owner events as server-sent events, for the control API's `GET /events` and the
 * dashboard's `GET /dashboard/api/events`: a process outside the hub (the TUI, chat, a
 * browser) hears an event as it happens instead of polling. Each event is
 *
 * ```text
 * id: <event_id>
 * event: <type>
 * data: <the event as JSON>
 * ```
 *
 * A client resumes with `Last-Event-ID` (or `?after=<id>`; `0` for all that is kept)
 * and gets exactly the events after it; `: truncated` says that events after its id were
 * trimmed from the history before it came back. The writer is the one every surface
 * shares (`sseResponse()` of `@agent/net`: heartbeat, back-pressure).
 *
 * @module
 */
import { HttpError, lastEventId, SSE_HEARTBEAT_MS, sseResponse } from "@agent/net";
import { isEventId } from "./event_id.ts";
import type { EventSubscription, OwnerEventFeed } from "./bus.ts";
import type { OwnerEvent } from "./types.ts";

/** The heartbeat interval of the event streams. */
export const EVENTS_HEARTBEAT_MS = SSE_HEARTBEAT_MS;

/** Options for {@linkcode ownerEventStream}. */
export interface OwnerEventStreamOptions {
  /** Ends the stream (the hub stops). */
  signal?: AbortSignal;
  /** @default {@linkcode EVENTS_HEARTBEAT_MS} */
  heartbeatMs?: number;
  /**
   * Name each frame after its event's type (`event: <type>`); without names every event
   * reaches a browser's `onmessage`, whatever types come later (the dashboard).
   * @default true
   */
  named?: boolean;
  /**
   * What each event is sent as (the dashboard adds its sentence in each language).
   * @default the event as it is
   */
  shape?: (event: OwnerEvent) => unknown;
}

/**
 * Where a stream resumes: the `Last-Event-ID` header, else `?after=`; `undefined` for
 * live events only, `""` for everything kept (`0`). Throws a 400 for something that is
 * not an event id.
 */
export function resumeFrom(request: Request, url: URL): string | undefined {
  const value = lastEventId(request, url);
  if (value === undefined) return undefined;
  if (value === "0") return "";
  if (!isEventId(value)) {
    throw new HttpError(400, "bad_request", {
      detail: "Last-Event-ID: not an event id (<13 digits>-<6 digits>)",
    });
  }
  return value;
}

/** The `text/event-stream` response of `feed`'s events after `after`. */
export function ownerEventStream(
  feed: OwnerEventFeed,
  after: string | undefined,
  options: OwnerEventStreamOptions = {},
): Response {
  const named = options.named ?? true;
  return sseResponse((out) => {
    // A client that asked for new events only learns where "now" is, so that after a
    // drop it resumes from there rather than from whatever is new then.
    if (after === undefined) out.mark(feed.lastId() ?? "0");
    const subscription: EventSubscription = feed.subscribe(
      (event: OwnerEvent) =>
        out.send({
          id: event.event_id,
          ...(named ? { event: event.type } : {}),
          data: JSON.stringify(options.shape ? options.shape(event) : event),
        }),
      {
        ...(after === undefined ? {} : { after }),
        onTruncated: () =>
          out.comment("truncated: some events after the given id are no longer kept"),
        onClose: () => out.close(),
      },
    );
    return () => subscription.close();
  }, {
    ...(options.signal ? { signal: options.signal } : {}),
    heartbeatMs: options.heartbeatMs ?? EVENTS_HEARTBEAT_MS,
  });
}
