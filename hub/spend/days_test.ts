import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { Ledger } from "../ledger/ledger.ts";
import type { CallRecord } from "../ledger/types.ts";
import { dayStart } from "../ledger/periods.ts";
import { ensureSpendGroups } from "./rollup.ts";
import { dayStarts, zoneFingerprint } from "./days.ts";

/** One call per instant, each in a session of its own (so each is one group row). */
function callsAt(instants: number[], tag: string): CallRecord[] {
  return instants.map((ts, i) => ({
    ts,
    role: "brain",
    provider: "fake",
    model_id: "m",
    input_tokens: 1,
    output_tokens: 1,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    usd: 0.01,
    channel: "chat",
    session_id: `${tag}-${i}`,
    peer: null,
  }));
}

/** Instants a minute either side of each local midnight, and noon, over `days`. */
function aroundMidnights(timeZone: string, from: string, days: number): number[] {
  const out: number[] = [];
  let day = Temporal.PlainDate.from(from);
  for (let i = 0; i < days; i++) {
    const start = day.toZonedDateTime(timeZone).startOfDay().epochMilliseconds;
    out.push(start - 60_000, start, start + 60_000, start + 12 * 3_600_000);
    day = day.add({ days: 1 });
  }
  return out;
}

function bucketOf(db: DatabaseSync, session: string): number {
  const row = db.prepare("SELECT day FROM spend_groups WHERE session_id = ?").get(session) as {
    day: number;
  };
  return row.day;
}

function startOfDayIn(timeZone: string, ms: number): number {
  return Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(timeZone).startOfDay()
    .epochMilliseconds;
}

Deno.test("ensureSpendGroups() buckets by Istanbul's real days: UTC+2 winters and DST switches before 2016, UTC+3 since", async () => {
  const dir = await Deno.makeTempDir({ prefix: "agent-spend-days-" });
  try {
    const file = `${dir}/spend.sqlite3`;
    // 2015: UTC+2, summer time from 29 March, back on 8 November; 2016 the switch to
    // UTC+3 for good (7 September 2016); and now.
    const backfilled = [
      ...aroundMidnights("Europe/Istanbul", "2015-03-27", 4),
      ...aroundMidnights("Europe/Istanbul", "2015-11-06", 4),
    ];
    const triggered = [
      ...aroundMidnights("Europe/Istanbul", "2016-09-05", 4),
      ...aroundMidnights("Europe/Istanbul", "2026-11-25", 3),
    ];
    const ledger = Ledger.open(file);
    ledger.recordMany(callsAt(backfilled, "old"));
    ensureSpendGroups(file); // the backfill
    ledger.recordMany(callsAt(triggered, "new")); // the trigger
    ledger.close();
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      backfilled.forEach((ts, i) => assert.equal(bucketOf(db, `old-${i}`), dayStart(ts), `${ts}`));
      triggered.forEach((ts, i) => assert.equal(bucketOf(db, `new-${i}`), dayStart(ts), `${ts}`));
      // A minute before a winter midnight of 2015 is the day before: a fixed UTC+3 would
      // have put it an hour into the next day.
      const winter = Temporal.ZonedDateTime.from("2015-11-10T00:00[Europe/Istanbul]");
      assert.equal(winter.offset, "+02:00");
    } finally {
      db.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ensureSpendGroups() rebuilds the buckets when the zone's rules differ from the ones they were built with", async () => {
  const dir = await Deno.makeTempDir({ prefix: "agent-spend-days-" });
  try {
    const file = `${dir}/spend.sqlite3`;
    // Another zone stands for Istanbul's rules after a change (a new offset, summer
    // time again): the fingerprint differs, so the table and its buckets are rebuilt.
    const instants = [
      ...aroundMidnights("Europe/Berlin", "2026-03-28", 3),
      ...aroundMidnights("Europe/Berlin", "2026-10-24", 3),
    ];
    const ledger = Ledger.open(file);
    ledger.recordMany(callsAt(instants, "a"));
    ensureSpendGroups(file);
    {
      const db = new DatabaseSync(file, { readOnly: true });
      instants.forEach((ts, i) => assert.equal(bucketOf(db, `a-${i}`), dayStart(ts)));
      db.close();
    }
    assert.notEqual(zoneFingerprint("Europe/Berlin"), zoneFingerprint("Europe/Istanbul"));
    ensureSpendGroups(file, { timeZone: "Europe/Berlin" });
    ledger.recordMany(callsAt(instants, "b"));
    {
      const db = new DatabaseSync(file);
      instants.forEach((ts, i) => {
        assert.equal(bucketOf(db, `a-${i}`), startOfDayIn("Europe/Berlin", ts), `rebuilt ${ts}`);
        assert.equal(bucketOf(db, `b-${i}`), startOfDayIn("Europe/Berlin", ts), `trigger ${ts}`);
      });
      // Same rules again: nothing is rebuilt (a marker row survives).
      db.exec(
        `INSERT INTO spend_groups VALUES (0, 'chat', 'marker', '', 0, 1, 0, 0, 0, 0, 0, 0)`,
      );
      db.close();
    }
    ensureSpendGroups(file, { timeZone: "Europe/Berlin" });
    {
      const db = new DatabaseSync(file, { readOnly: true });
      assert.equal(bucketOf(db, "marker"), 0);
      db.close();
    }
    ledger.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("dayStarts() gives every day once, 23 to 25 hours apart across switches", () => {
  const starts = dayStarts("Europe/Berlin");
  assert.equal(starts.length, 36_525);
  for (let i = 1; i < starts.length; i++) {
    const hours = (starts[i]! - starts[i - 1]!) / 3_600_000;
    assert.ok(hours === 23 || hours === 24 || hours === 25, `${starts[i]}: ${hours}`);
  }
});

Deno.test("dayStarts() equals Temporal's startOfDay for every day, in zones that skip midnight or a day", () => {
  const oracle = (timeZone: string) => {
    const out: number[] = [];
    let day = Temporal.PlainDate.from("2000-01-01");
    while (Temporal.PlainDate.compare(day, Temporal.PlainDate.from("2100-01-01")) < 0) {
      out.push(day.toZonedDateTime(timeZone).startOfDay().epochMilliseconds);
      day = day.add({ days: 1 });
    }
    return out;
  };
  // Istanbul (UTC+2 with DST, then UTC+3), São Paulo (DST began at midnight), Apia (skipped
  // 30.12.2011), Lord Howe (a 30-minute switch), Casablanca (Ramadan switches).
  for (
    const zone of [
      "Europe/Istanbul",
      "America/Sao_Paulo",
      "Pacific/Apia",
      "Australia/Lord_Howe",
      "Africa/Casablanca",
    ]
  ) {
    assert.deepEqual(dayStarts(zone), oracle(zone), zone);
  }
});
