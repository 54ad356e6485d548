import assert from "node:assert/strict";
import { configWith, ist, shippedRoles, spend, tempLedger } from "../ledger/_testing.ts";
import { spendBy, spendByLines } from "./by.ts";
import type { CallRecord } from "../ledger/ledger.ts";

function call(ts: number, extra: Partial<CallRecord>): CallRecord {
  return { ...spend("brain", ts, 0), ...extra };
}

/** Calls across channels, contacts, sessions and days, around the 1 November boundary. */
function seeded() {
  const ledger = tempLedger();
  ledger.recordMany([
    // 31 Oct 23:30 in Istanbul: the previous month, never counted in November.
    call(ist("2026-10-31T23:30"), { channel: "chat", session_id: "old", usd: 100 }),
    // 1 Nov 00:10 in Istanbul (still 31 Oct in UTC): November.
    call(ist("2026-11-01T00:10"), { channel: "chat", session_id: "a", usd: 1, input_tokens: 100 }),
    call(ist("2026-11-03T09:00"), { channel: "chat", session_id: "a", usd: 2, output_tokens: 50 }),
    call(ist("2026-11-03T10:00"), { channel: "messenger", session_id: "m1", usd: 0.5 }),
    call(ist("2026-11-05T12:00"), {
      channel: "net",
      session_id: "n1",
      peer: "alice.example",
      usd: 0.25,
      cache_read_tokens: 1000,
    }),
    call(ist("2026-11-05T13:00"), {
      channel: "net",
      session_id: "n2",
      peer: "alice.example/chef",
      usd: 0.75,
      role: "fast",
    }),
    call(ist("2026-11-05T14:00"), {
      channel: "net",
      session_id: "n1",
      peer: "alice.example",
      usd: null,
    }),
    call(ist("2026-11-06T08:00"), { channel: "cli", session_id: null, usd: 0.1, role: "fast" }),
  ]);
  return ledger;
}

const config = configWith(shippedRoles());
const NOW = ist("2026-11-06T12:00");

Deno.test("spendBy() channel: the month in Istanbul time, largest first, with calls and tokens", () => {
  using ledger = seeded();
  const r = spendBy(config, ledger, { by: "channel", nowMs: NOW });
  assert.equal(r.period, "month");
  assert.equal(r.since, "2026-11-01T00:00:00+03:00");
  assert.equal(r.until, "2026-12-01T00:00:00+03:00");
  assert.deepEqual(r.rows.map((x) => [x.key, x.usd, x.calls]), [
    ["chat", 3, 2],
    ["net", 1, 3],
    ["messenger", 0.5, 1],
    ["cli", 0.1, 1],
  ]);
  assert.equal(r.rows[0]!.input_tokens, 110);
  assert.equal(r.rows[0]!.output_tokens, 60);
  assert.deepEqual([r.total.usd, r.total.calls, r.total.unpriced_calls], [4.6, 7, 1]);
});

Deno.test("spendBy() purpose: answers and the summaries that fold long sessions apart", () => {
  using ledger = seeded();
  ledger.record(call(ist("2026-11-06T09:00"), {
    channel: "chat",
    session_id: "a",
    usd: 0.02,
    role: "fast",
    purpose: "compaction",
  }));
  const r = spendBy(config, ledger, { by: "purpose", nowMs: NOW });
  assert.deepEqual(r.rows.map((x) => [x.key, x.usd, x.calls, x.channel]), [
    ["turn", 4.6, 7, undefined],
    ["compaction", 0.02, 1, undefined],
  ]);
  assert.match(spendByLines(r, "en").join("\n"), /^Spend by purpose, /);
  assert.match(spendByLines(r, "tr").join("\n"), /compaction/);
});

Deno.test("spendBy() contact: network turns by address and sub-agent", () => {
  using ledger = seeded();
  const r = spendBy(config, ledger, { by: "contact", nowMs: NOW });
  assert.deepEqual(r.rows.map((x) => [x.key, x.usd, x.calls, x.unpriced_calls]), [
    ["alice.example/chef", 0.75, 1, 0],
    ["alice.example", 0.25, 2, 1],
  ]);
  assert.equal(r.rows[1]!.cache_read_tokens, 1000);
});

Deno.test("spendBy() session: by channel and session; --role and --period narrow it", () => {
  using ledger = seeded();
  const all = spendBy(config, ledger, { by: "session", nowMs: NOW });
  assert.deepEqual(all.rows.slice(0, 2).map((x) => [x.key, x.session_id, x.usd]), [
    ["chat a", "a", 3],
    ["net n2", "n2", 0.75],
  ]);
  assert.ok(all.rows.some((x) => x.key === "cli -" && x.session_id === null));
  // fast's own period is the day: only 6 November.
  const fast = spendBy(config, ledger, { by: "session", role: "fast", nowMs: NOW });
  assert.equal(fast.period, "day");
  assert.deepEqual(fast.rows.map((x) => [x.key, x.usd]), [["cli -", 0.1]]);
  const week = spendBy(config, ledger, { by: "session", role: "fast", period: "week", nowMs: NOW });
  assert.equal(week.since, "2026-11-02T00:00:00+03:00");
  assert.deepEqual(week.rows.map((x) => x.key), ["net n2", "cli -"]);
});

Deno.test("spendBy() day: every Istanbul day of the period up to today, oldest first", () => {
  using ledger = seeded();
  const r = spendBy(config, ledger, { by: "day", nowMs: NOW });
  assert.deepEqual(r.rows.map((x) => [x.key, x.usd, x.calls]), [
    ["2026-11-01", 1, 1],
    ["2026-11-02", 0, 0],
    ["2026-11-03", 2.5, 2],
    ["2026-11-04", 0, 0],
    ["2026-11-05", 1, 3],
    ["2026-11-06", 0.1, 1],
  ]);
  assert.equal(r.rows[0]!.input_tokens, 100);
  assert.equal(r.rows[4]!.cache_read_tokens, 1000);
  const brain = spendBy(config, ledger, { by: "day", role: "brain", nowMs: NOW });
  assert.deepEqual(brain.rows.map((x) => x.usd), [1, 0, 2.5, 0, 0.25, 0]);
});

Deno.test("spendBy() without a ledger: nothing spent, and the days still listed", () => {
  const r = spendBy(config, undefined, { by: "day", period: "week", nowMs: NOW });
  assert.equal(r.rows.length, 5);
  assert.equal(r.total.usd, 0);
  assert.deepEqual(spendBy(config, undefined, { by: "channel", nowMs: NOW }).rows, []);
});

Deno.test("spendByLines() aligns the rows and ends with the total, in both languages", () => {
  using ledger = seeded();
  const r = spendBy(config, ledger, { by: "contact", nowMs: NOW });
  assert.deepEqual(spendByLines(r, "en"), [
    "Spend by contact, this month (01.11.2026 00:00 to 01.12.2026 00:00):",
    "  alice.example/chef  $0.75  1 call, 10 in / 10 out tokens",
    "  alice.example       $0.25  2 calls, 1,020 in / 20 out tokens",
    "  total               $1.00  3 calls, 1,030 in / 30 out tokens",
  ]);
  assert.equal(
    spendByLines(r, "tr")[0],
    "Kişi başına harcama, bu ay (01.11.2026 00:00 - 01.12.2026 00:00):",
  );
  const days = spendByLines(spendBy(config, ledger, { by: "day", nowMs: NOW }), "en");
  assert.equal(days[1], "  01.11.2026  $1.00  1 call, 100 in / 10 out tokens");
});
