/**
 * Agent events of the network service, for the owner's channels: one JSON line per
 * event in `<AGENT_DATA_DIR>/net/events.jsonl` (0600), the last 200 kept. The hub's
 * control API serves them at `GET /net/events?after=<unix seconds>`.
 *
 * Event shapes (the spec leaves the payload open):
 * - `{ts, type: "net.contact_request", address, name, text}`: a stranger asked to
 *   become a contact; `agent net accept <address>` accepts.
 * - `{ts, type: "budget.warning" | "budget.spent", role, spent_usd, cap_usd, period,
 *   text}`: a budgeted role passed its `warn_at` share of the cap, or spent it (`text`
 *   is the sentence in the hub's UI language); each told once per role and period.
 * - `{ts, type: "model.failover", role, stand_in, text}`: a role's model could not be
 *   reached and its failover answered; told once per role and day.
 *
 * @module
 */
import { readJsonLines, writeFileAtomic } from "../atomic_file.ts";

/** A stranger's contact request. */
export interface ContactRequestEvent {
  /** Unix seconds. */
  ts: number;
  type: "net.contact_request";
  address: string;
  name: string;
  text: string;
}

/** A budgeted role passed its warning threshold. */
export interface BudgetWarningEvent {
  /** Unix seconds. */
  ts: number;
  type: "budget.warning" | "budget.spent";
  role: string;
  spent_usd: number;
  cap_usd: number;
  period: string;
  /** The sentence, in the hub's UI language. */
  text: string;
}

/** A role's model could not be reached and its failover answered. */
export interface FailoverNetEvent {
  /** Unix seconds. */
  ts: number;
  type: "model.failover";
  role: string;
  stand_in: string;
  /** The sentence, in the hub's UI language. */
  text: string;
}

/** A message the outbox gave up on after 24 hours. */
export interface OutboxDroppedEvent {
  /** Unix seconds. */
  ts: number;
  type: "net.outbox_dropped";
  address: string;
  id: string;
  /** The message's text. */
  text: string;
}

/** One agent event for the owner's channels. */
export type NetEvent =
  | ContactRequestEvent
  | BudgetWarningEvent
  | FailoverNetEvent
  | OutboxDroppedEvent;

/** How many events are kept. */
export const EVENTS_MAX = 200;

/** The events file in the network folder. */
export function eventsFile(netDir: string): string {
  return `${netDir}/events.jsonl`;
}

/** Appends an event (trimming the file to the last 200 now and then). */
export async function appendNetEvent(netDir: string, event: NetEvent): Promise<void> {
  await Deno.mkdir(netDir, { recursive: true, mode: 0o700 });
  const file = eventsFile(netDir);
  await Deno.writeTextFile(file, JSON.stringify(event) + "\n", { append: true, mode: 0o600 });
  const all = await readNetEvents(netDir);
  if (all.length > EVENTS_MAX + 50) {
    await writeFileAtomic(
      file,
      all.slice(-EVENTS_MAX).map((e) => JSON.stringify(e) + "\n").join(""),
    );
  }
}

/** Events newer than `afterSec` (Unix seconds), oldest first; a torn line is skipped. */
export async function readNetEvents(netDir: string, afterSec = 0): Promise<NetEvent[]> {
  const lines = await readJsonLines(eventsFile(netDir)) ?? [];
  return lines.filter((event): event is NetEvent =>
    typeof (event as NetEvent | null)?.ts === "number" && (event as NetEvent).ts > afterSec
  );
}
