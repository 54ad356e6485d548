/**
 * The durable history of owner events: `<AGENT_DATA_DIR>/net/events.jsonl` (0600), one
 * JSON line per event, the last {@linkcode EVENTS_MAX} kept. Every writer (the hub's bus,
 * and `agent net poll --once` or a CLI command when no hub runs) appends under an
 * exclusive lock on `<net>/.events.lock`, so the ids it picks rise in file order even
 * when two processes append at once, and readers need no lock.
 *
 * A line cut short by a crash is healed by the next writer (it starts on a new line)
 * and skipped by readers; a line from before ids existed is read with a derived id.
 *
 * @module
 */
import { readTextIfAny, withFileLock, writeFileAtomic } from "../atomic_file.ts";
import { derivedEventId, nextEventId } from "./event_id.ts";
import { EVENTS_MAX, type NetEvent, type OwnerEvent, type OwnerEventSink } from "./types.ts";

/** The events file in the network folder. */
export function eventsFile(netDir: string): string {
  return `${netDir}/events.jsonl`;
}

/** The file is rewritten to its last {@linkcode EVENTS_MAX} lines past this many. */
const TRIM_AT = EVENTS_MAX + 50;

/** Options for {@linkcode appendEvents}. */
export interface AppendEventsOptions {
  /** @default Date.now */
  now?: () => number;
}

/** What {@linkcode appendEvents} found and wrote. */
export interface Appended {
  /** The events in the file before this append, oldest first. */
  before: OwnerEvent[];
  /** The events written, with their ids. */
  appended: OwnerEvent[];
}

/**
 * Appends events durably (written and synced before it returns), each with a fresh id
 * after the newest in the file, and trims the file now and then.
 *
 * @example
 * ```ts
 * import { appendEvents } from "./log.ts";
 * const dir = await Deno.makeTempDir();
 * const { appended } = await appendEvents(dir, [
 *   { ts: 1, type: "model.failover", role: "brain", stand_in: "fast", text: "..." },
 * ]);
 * await Deno.remove(dir, { recursive: true });
 * if (!/^\d{13}-\d{6}$/.test(appended[0]!.event_id)) throw new Error();
 * ```
 */
export function appendEvents(
  netDir: string,
  events: readonly NetEvent[],
  options: AppendEventsOptions = {},
): Promise<Appended> {
  const now = options.now ?? Date.now;
  return exclusive(netDir, async () => {
    const file = eventsFile(netDir);
    const text = await readTextIfAny(file) ?? "";
    // Under the lock a last line without its newline is no writer at work but a crash.
    const lines = parseLines(text, true);
    let last = lines.reduce<string | undefined>(
      (max, l) => max === undefined || l.event.event_id > max ? l.event.event_id : max,
      undefined,
    );
    const appended: OwnerEvent[] = [];
    for (const event of events) {
      last = nextEventId(last, now());
      const { event_id: _, ...rest } = event as OwnerEvent;
      appended.push({ event_id: last, ...rest } as OwnerEvent);
    }
    const added = appended.map((e) => JSON.stringify(e) + "\n");
    const heal = text !== "" && !text.endsWith("\n") ? "\n" : "";
    const handle = await Deno.open(file, { append: true, create: true, mode: 0o600 });
    try {
      const bytes = new TextEncoder().encode(heal + added.join(""));
      let written = 0;
      while (written < bytes.length) written += await handle.write(bytes.subarray(written));
      await handle.syncData();
    } finally {
      handle.close();
    }
    if (lines.length + added.length > TRIM_AT) {
      const kept = [...lines.map((l) => l.line + "\n"), ...added].slice(-EVENTS_MAX);
      await writeFileAtomic(file, kept.join(""), { mode: 0o600 });
    }
    return { before: lines.map((l) => l.event), appended };
  });
}

/** Appends one event (see {@linkcode appendEvents}); returns it with its id. */
export async function appendEvent(
  netDir: string,
  event: NetEvent,
  options: AppendEventsOptions = {},
): Promise<OwnerEvent> {
  return (await appendEvents(netDir, [event], options)).appended[0]!;
}

/**
 * Every event in the file, oldest first, without taking the lock: a line still being
 * written (no newline yet) is left for the next read, a torn or foreign line is skipped.
 */
export async function readEventLog(netDir: string): Promise<OwnerEvent[]> {
  const text = await readTextIfAny(eventsFile(netDir)) ?? "";
  return parseLines(text, false).map((l) => l.event);
}

/** The file as a sink: what writers outside the hub use. */
export function fileEventSink(netDir: string, options: AppendEventsOptions = {}): OwnerEventSink {
  return { publish: (event) => appendEvent(netDir, event, options) };
}

interface Line {
  line: string;
  event: OwnerEvent;
}

function parseLines(text: string, withTail: boolean): Line[] {
  const parts = text.split("\n");
  // The piece after the last newline is either empty or a line not finished.
  const tail = parts.pop() ?? "";
  if (withTail && tail.trim() !== "") parts.push(tail);
  const out: Line[] = [];
  for (const line of parts) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue; // a half-written line from a crash
    }
    const event = value as Partial<OwnerEvent> | null;
    if (typeof event !== "object" || event === null || Array.isArray(event)) continue;
    if (typeof event.ts !== "number" || typeof event.type !== "string") continue;
    const id = typeof event.event_id === "string" && event.event_id !== ""
      ? event.event_id
      : derivedEventId(event.ts, line);
    out.push({ line, event: { ...event, event_id: id } as OwnerEvent });
  }
  return out;
}

const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` holding the events lock: calls in this process queue up, and an exclusive
 * `flock` on `<net>/.events.lock` keeps other processes out.
 */
async function exclusive<T>(netDir: string, fn: () => Promise<T>): Promise<T> {
  const previous = queues.get(netDir) ?? Promise.resolve();
  const run = previous.then(async () => {
    await Deno.mkdir(netDir, { recursive: true, mode: 0o700 });
    return await withFileLock(`${netDir}/.events.lock`, fn);
  });
  const settled = run.catch(() => {});
  queues.set(netDir, settled);
  try {
    return await run;
  } finally {
    if (queues.get(netDir) === settled) queues.delete(netDir);
  }
}
