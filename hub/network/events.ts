/**
 * Agent events of the network service, for the owner's channels. They are owner events
 * (`hub/events/`): one JSON line each in `<AGENT_DATA_DIR>/net/events.jsonl` (0600),
 * each with an `event_id`, the last 200 kept. The hub publishes them on its bus; the
 * control API serves them at `GET /events` (server-sent events) and
 * `GET /net/events?after=<unix seconds>`.
 *
 * @module
 */
import { appendEvent, type NetEvent, type OwnerEvent, readEventLog } from "../events/mod.ts";

export {
  type BudgetWarningEvent,
  type ContactRequestEvent,
  EVENTS_MAX,
  eventsFile,
  type FailoverNetEvent,
  type NetEvent,
  type OutboxDroppedEvent,
  type OwnerEvent,
  type OwnerEventSink,
} from "../events/mod.ts";

/**
 * Appends an event to the file (trimming it to the last 200 now and then); returns it
 * with its id. Code in the hub publishes on the bus instead, so channels hear it at once.
 */
export function appendNetEvent(netDir: string, event: NetEvent): Promise<OwnerEvent> {
  return appendEvent(netDir, event);
}

/** Events newer than `afterSec` (Unix seconds), oldest first; a torn line is skipped. */
export async function readNetEvents(netDir: string, afterSec = 0): Promise<OwnerEvent[]> {
  return (await readEventLog(netDir)).filter((event) => event.ts > afterSec);
}
