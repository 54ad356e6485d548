import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { type TempDir, tempDir } from "../../tests/_temp_dir.ts";
import { type CallRecord, Ledger, LedgerError } from "./ledger.ts";

/** An Istanbul wall-clock time as epoch ms. */
function ist(text: string): number {
  return Temporal.ZonedDateTime.from(`${text}[Europe/Istanbul]`).epochMilliseconds;
}

function call(ts: number, fields: Partial<CallRecord> = {}): CallRecord {
  return {
    ts,
    role: "brain",
    provider: "vendor-a",
    model_id: "model-1",
    input_tokens: 100,
    output_tokens: 20,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    usd: 0.5,
    channel: "chat",
    session_id: "s1",
    peer: null,
    ...fields,
  };
}

/** A ledger path two missing folders deep in `dir`. */
function ledgerFile(dir: TempDir): string {
  return `${dir.path}/data/deep/spend.sqlite3`;
}

Deno.test("Ledger.open() creates the file with mode 0600 and its directory", () => {
  using tmp = tempDir("ledger_test_");
  const file = ledgerFile(tmp);
  using ledger = Ledger.open(file);
  ledger.record(call(ist("2026-05-02T10:00")));
  assert.equal(Deno.statSync(file).mode! & 0o777, 0o600);
  for (const side of ["-wal", "-shm"]) {
    const info = Deno.statSync(file + side);
    assert.equal(info.mode! & 0o077, 0, `${side} is private`);
  }
});

Deno.test("Ledger.openExisting() does not create a missing ledger", () => {
  using tmp = tempDir("ledger_test_");
  const file = ledgerFile(tmp);
  assert.equal(Ledger.openExisting(file), undefined);
  assert.throws(() => Deno.statSync(file), Deno.errors.NotFound);
  Ledger.open(file).close();
  const again = Ledger.openExisting(file);
  assert.ok(again instanceof Ledger);
  again.close();
});

Deno.test("Ledger.spent() sums a role's calls from a period start, rows kept across reopen", () => {
  using tmp = tempDir("ledger_test_");
  const file = ledgerFile(tmp);
  const ledger = Ledger.open(file);
  ledger.record(call(ist("2026-04-30T23:59"), { usd: 9 })); // last month
  ledger.record(call(ist("2026-05-01T00:00"), { usd: 1.25 }));
  ledger.record(call(ist("2026-05-14T18:00"), { usd: 0.75 }));
  ledger.record(call(ist("2026-05-14T18:01"), { usd: null, model_id: "no-price" }));
  ledger.record(call(ist("2026-05-14T18:02"), { role: "fast", usd: 4 }));
  ledger.close();
  using reopened = Ledger.open(file);
  assert.deepEqual(reopened.spent("brain", ist("2026-05-01T00:00")), {
    usd: 2,
    calls: 3,
    unpriced_calls: 1,
    estimated_calls: 0,
  });
  assert.deepEqual(reopened.spent("fast", ist("2026-05-01T00:00")), {
    usd: 4,
    calls: 1,
    unpriced_calls: 0,
    estimated_calls: 0,
  });
  assert.deepEqual(reopened.spent("local", ist("2026-05-01T00:00")), {
    usd: 0,
    calls: 0,
    unpriced_calls: 0,
    estimated_calls: 0,
  });
  assert.equal(reopened.count(), 5);
});

Deno.test("Ledger.spent() from mid-day agrees with the rows themselves", () => {
  using tmp = tempDir("ledger_test_");
  using ledger = Ledger.open(ledgerFile(tmp));
  const times = [
    "2026-05-14T08:00",
    "2026-05-14T12:00",
    "2026-05-14T12:00:00.001",
    "2026-05-15T01:00",
  ];
  ledger.recordMany(times.map((t, i) => call(ist(t), { usd: i + 1 })));
  assert.equal(ledger.spent("brain", ist("2026-05-14T12:00")).usd, 2 + 3 + 4);
  assert.equal(ledger.spent("brain", ist("2026-05-14T12:00:00.001")).usd, 3 + 4);
  assert.equal(ledger.spent("brain", ist("2026-05-15T00:00")).usd, 4);
  assert.equal(ledger.spent("brain", ist("2026-05-16T00:00")).usd, 0);
});

Deno.test("Ledger keeps the daily totals in step with the rows", () => {
  using tmp = tempDir("ledger_test_");
  const file = ledgerFile(tmp);
  const ledger = Ledger.open(file);
  const start = ist("2026-03-01T00:00");
  const rows: CallRecord[] = [];
  for (let i = 0; i < 500; i++) {
    rows.push(call(start + i * 4_321_000, {
      role: i % 3 === 0 ? "fast" : "brain",
      usd: i % 7 === 0 ? null : (i % 13) / 100,
    }));
  }
  ledger.recordMany(rows);
  ledger.close();
  const db = new DatabaseSync(file);
  const raw = db.prepare(
    "SELECT role, TOTAL(usd) AS usd, COUNT(*) AS calls, TOTAL(usd IS NULL) AS unpriced FROM calls GROUP BY role ORDER BY role",
  ).all();
  const daily = db.prepare(
    "SELECT role, TOTAL(usd) AS usd, TOTAL(calls) AS calls, TOTAL(unpriced_calls) AS unpriced FROM spend_day GROUP BY role ORDER BY role",
  ).all();
  db.close();
  assert.equal(raw.length, 2);
  for (const [i, r] of raw.entries()) {
    const d = daily[i]!;
    assert.equal(d.role, r.role);
    assert.ok(Math.abs(Number(d.usd) - Number(r.usd)) < 1e-9);
    assert.equal(Number(d.calls), Number(r.calls));
    assert.equal(Number(d.unpriced), Number(r.unpriced));
  }
});

Deno.test("Ledger.breakdown() groups spend by channel, session and peer", () => {
  using tmp = tempDir("ledger_test_");
  using ledger = Ledger.open(ledgerFile(tmp));
  const t = ist("2026-05-14T10:00");
  ledger.recordMany([
    call(t, { channel: "chat", session_id: "a", usd: 1 }),
    call(t + 1, { channel: "chat", session_id: "b", usd: 2 }),
    call(t + 2, { channel: "messenger", session_id: "m", usd: 0.5 }),
    call(t + 3, { channel: "net", session_id: "n1", peer: "alice.example", usd: 0.25 }),
    call(t + 4, { channel: "net", session_id: "n2", peer: "alice.example", usd: null }),
    call(t + 5, { channel: "net", session_id: "n3", peer: "bob.example", usd: 0.1, role: "fast" }),
  ]);
  const byChannel = ledger.breakdown("channel", { sinceMs: t });
  assert.deepEqual(byChannel.map((r) => [r.channel, r.usd, r.calls]), [
    ["chat", 3, 2],
    ["messenger", 0.5, 1],
    ["net", 0.35, 3],
  ]);
  const byPeer = ledger.breakdown("peer", { sinceMs: t });
  assert.deepEqual(byPeer.map((r) => [r.peer, r.usd, r.calls, r.unpriced_calls]), [
    ["alice.example", 0.25, 2, 1],
    ["bob.example", 0.1, 1, 0],
  ]);
  const bySession = ledger.breakdown("session", { sinceMs: t, untilMs: t + 2, role: "brain" });
  assert.deepEqual(bySession.map((r) => [r.channel, r.session_id, r.usd]), [["chat", "b", 2], [
    "chat",
    "a",
    1,
  ]]);
});

Deno.test("Ledger.record() rejects a malformed call and writes nothing", () => {
  using tmp = tempDir("ledger_test_");
  using ledger = Ledger.open(ledgerFile(tmp));
  const t = ist("2026-05-14T10:00");
  assert.throws(() => ledger.record(call(t, { usd: -1 })), TypeError);
  assert.throws(() => ledger.record(call(t, { role: "" })), TypeError);
  assert.throws(() => ledger.record(call(t, { input_tokens: 1.5 })), TypeError);
  assert.throws(() => ledger.record(call(t, { channel: "fax" as "chat" })), TypeError);
  assert.throws(() => ledger.recordMany([call(t), call(t, { ts: -5 })]), TypeError);
  assert.equal(ledger.count(), 0);
});

Deno.test("Ledger.open() refuses a ledger from a newer schema", () => {
  using tmp = tempDir("ledger_test_");
  const file = ledgerFile(tmp);
  Ledger.open(file).close();
  const db = new DatabaseSync(file);
  db.exec("PRAGMA user_version = 99");
  db.close();
  assert.throws(() => Ledger.open(file), (e: unknown) => {
    assert.ok(e instanceof LedgerError);
    assert.match(e.message, /^Cannot open the spend ledger .*schema version 99/);
    return true;
  });
});

Deno.test("Ledger.open() reports a file that is not a ledger", () => {
  using tmp = tempDir("ledger_test_");
  const file = ledgerFile(tmp);
  Deno.mkdirSync(file.slice(0, file.lastIndexOf("/")), { recursive: true });
  Deno.writeTextFileSync(file, "this is not a database, just text that is long enough ".repeat(40));
  assert.throws(() => Ledger.open(file), LedgerError);
});

Deno.test("Ledger refuses use after close()", () => {
  using tmp = tempDir("ledger_test_");
  const ledger = Ledger.open(ledgerFile(tmp));
  ledger.close();
  ledger.close();
  assert.throws(() => ledger.spent("brain", 0), LedgerError);
});

Deno.test("Ledger.open() migrates a version-1 ledger: daily token totals filled from its calls", () => {
  using tmp = tempDir("ledger_test_");
  const file = ledgerFile(tmp);
  Deno.mkdirSync(file.slice(0, file.lastIndexOf("/")), { recursive: true });
  const db = new DatabaseSync(file);
  // The version-1 schema as it shipped: spend_day without token columns.
  db.exec(`CREATE TABLE calls (id INTEGER PRIMARY KEY, ts INTEGER NOT NULL, role TEXT NOT NULL,
    provider TEXT NOT NULL, model_id TEXT NOT NULL, input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL, cache_read_tokens INTEGER NOT NULL,
    cache_write_tokens INTEGER NOT NULL, usd REAL, channel TEXT NOT NULL, session_id TEXT,
    peer TEXT);
  CREATE TABLE spend_day (role TEXT NOT NULL, day INTEGER NOT NULL, usd REAL NOT NULL,
    calls INTEGER NOT NULL, unpriced_calls INTEGER NOT NULL, PRIMARY KEY (role, day)) WITHOUT ROWID;
  PRAGMA user_version = 1;`);
  const day = ist("2026-05-14T00:00");
  for (
    const [ts, input, output] of [[day + 1, 100, 7], [day + 2, 20, 3], [day + 86_400_000, 5, 1]]
  ) {
    db.prepare(`INSERT INTO calls (ts, role, provider, model_id, input_tokens, output_tokens,
      cache_read_tokens, cache_write_tokens, usd, channel) VALUES (?, 'brain', 'p', 'm', ?, ?, 1, 2, 0.5, 'chat')`)
      .run(ts!, input!, output!);
  }
  db.exec(
    `INSERT INTO spend_day VALUES ('brain', ${day}, 1.0, 2, 0), ('brain', ${
      day + 86_400_000
    }, 0.5, 1, 0)`,
  );
  db.close();
  using ledger = Ledger.open(file);
  const days = ledger.days({ sinceMs: day });
  assert.deepEqual(
    days.map((
      d,
    ) => [
      d.day,
      d.usd,
      d.calls,
      d.input_tokens,
      d.output_tokens,
      d.cache_read_tokens,
      d.cache_write_tokens,
    ]),
    [[day, 1, 2, 120, 10, 2, 4], [day + 86_400_000, 0.5, 1, 5, 1, 1, 2]],
  );
  // New calls add to the totals from now on.
  ledger.record(call(day + 3, { input_tokens: 1, output_tokens: 1 }));
  assert.equal(ledger.days({ sinceMs: day })[0]!.input_tokens, 121);
  // Version 3: the old calls read as answers; a summary is told apart.
  ledger.record(call(day + 4, { purpose: "compaction" }));
  const purposes = ledger.breakdown("purpose", { sinceMs: day });
  assert.deepEqual(purposes.map((p) => [p.purpose, p.calls]), [["turn", 4], ["compaction", 1]]);
});
