/**
 * The calendar days of the ledger's time zone as a table SQL can read: one row per
 * day from 2000 to 2100 holding the instant the day starts, computed in TypeScript
 * from the tz database (Temporal's `startOfDay`, the same function as `dayStart`).
 * The `spend_groups` trigger looks a call's day up here instead of adding a fixed
 * offset, so a day follows the zone's rules as they were on that day: Istanbul's
 * UTC+2 winters before 2016 and its daylight-saving switches, and any change the tz
 * database brings later.
 *
 * Why a table and not an offset: a trigger runs in whichever process writes the call
 * (the hub, a CLI command), where no TypeScript runs, and SQLite knows no time zones.
 *
 * When the zone's rules change (a newer tz database under a newer Deno), the
 * fingerprint kept beside the table (the zone's offset transitions) no longer
 * matches, and the caller rebuilds the table and every bucket computed from it.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";

/** The first and the last day the table holds (a call outside them: see `dayOfSql`). */
const FIRST = "2000-01-01";
const LAST = "2100-01-01";
const DAY_MS = 86_400_000;

/** The zone's offset at the table's first day and each change of it over the span. */
function transitions(timeZone: string): { at: number; offsetMs: number }[] {
  const end = Temporal.PlainDate.from(LAST).toZonedDateTime(timeZone).epochMilliseconds;
  let at: Temporal.ZonedDateTime | null = Temporal.PlainDate.from(FIRST).toZonedDateTime(timeZone);
  const out = [{ at: -Infinity, offsetMs: at.offsetNanoseconds / 1e6 }];
  while (at !== null) {
    at = at.getTimeZoneTransition("next");
    if (at === null || at.epochMilliseconds >= end) break;
    out.push({ at: at.epochMilliseconds, offsetMs: at.offsetNanoseconds / 1e6 });
  }
  return out;
}

/**
 * The zone's offset transitions over the table's span, as text: equal texts mean
 * equal day starts.
 */
export function zoneFingerprint(timeZone: string): string {
  const [first, ...rest] = transitions(timeZone);
  return [
    `${timeZone} ${offsetText(first!.offsetMs)}`,
    ...rest.map((t) => `${t.at}${offsetText(t.offsetMs)}`),
  ].join(" ");
}

/** `+03:00` for 3 hours, as Temporal writes an offset. */
function offsetText(offsetMs: number): string {
  const minutes = Math.abs(offsetMs) / 60_000;
  const hh = String(Math.floor(minutes / 60)).padStart(2, "0");
  const mm = String(minutes % 60).padStart(2, "0");
  return `${offsetMs < 0 ? "-" : "+"}${hh}:${mm}`;
}

/**
 * Every day start of `timeZone` over the table's span, oldest first. Between the
 * zone's transitions a day starts at local midnight minus the offset, which is plain
 * arithmetic; a day within three days of a transition is asked of Temporal's
 * `startOfDay` (a zone may skip midnight, or a whole day, when it switches). 36,500
 * `startOfDay` calls cost ~25 MiB that the process kept; this makes ~100.
 */
export function dayStarts(timeZone: string): number[] {
  const changes = transitions(timeZone);
  const starts: number[] = [];
  const firstLocal = Date.parse(`${FIRST}T00:00:00Z`);
  const days = Math.round((Date.parse(`${LAST}T00:00:00Z`) - firstLocal) / DAY_MS);
  let k = 0;
  for (let i = 0; i < days; i++) {
    const local = firstLocal + i * DAY_MS;
    while (k + 1 < changes.length && changes[k + 1]!.at <= local - changes[k]!.offsetMs) k++;
    const near = (k + 1 < changes.length && changes[k + 1]!.at - local < 3 * DAY_MS) ||
      local - changes[k]!.at < 3 * DAY_MS;
    starts.push(
      near
        ? Temporal.PlainDate.from(new Date(local).toISOString().slice(0, 10))
          .toZonedDateTime(timeZone).startOfDay().epochMilliseconds
        : local - changes[k]!.offsetMs,
    );
  }
  return starts;
}

/**
 * (Re)writes the day table `table` for `timeZone` inside the caller's transaction.
 */
export function writeDayTable(db: DatabaseSync, table: string, timeZone: string): void {
  db.exec(`DROP TABLE IF EXISTS ${table}`);
  db.exec(`CREATE TABLE ${table} (start INTEGER PRIMARY KEY)`);
  // One statement for the 36,525 rows: a call per row cost the hub's first start
  // ~15 MiB of garbage the process kept.
  db.prepare(`INSERT INTO ${table} (start) SELECT value FROM json_each(?)`)
    .run(JSON.stringify(dayStarts(timeZone)));
}

/**
 * SQL for the day start of the instant `ts` (an SQL expression, epoch ms): the latest
 * day start in `table` at or before it. Outside the table's span (before 2000, after
 * 2100) it falls back to `fallbackOffsetMs` (the zone's offset now), which no real
 * call needs.
 */
export function dayOfSql(table: string, ts: string, fallbackOffsetMs: number): string {
  // A day is at most 25 hours long: a start further back means `ts` is past the table.
  return `COALESCE((SELECT start FROM ${table} WHERE start <= ${ts} AND start > ${ts} - ${
    2 * DAY_MS
  } ORDER BY start DESC LIMIT 1), ((${ts} + ${fallbackOffsetMs}) / ${DAY_MS} * ${DAY_MS} - ${fallbackOffsetMs}))`;
}

/** The zone's offset now, in ms (the fallback of {@linkcode dayOfSql}). */
export function offsetNowMs(timeZone: string, nowMs: number = Date.now()): number {
  return Temporal.Instant.fromEpochMilliseconds(nowMs).toZonedDateTimeISO(timeZone)
    .offsetNanoseconds / 1_000_000;
}
