import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { tempDir } from "../../tests/_temp_dir.ts";
import { Ledger, LedgerError, type PendingCall } from "./ledger.ts";
import { spend } from "./_testing.ts";

function pending(fields: Partial<PendingCall> = {}): PendingCall {
  return {
    call_id: crypto.randomUUID(),
    ts: Date.UTC(2026, 4, 2, 9),
    pid: Deno.pid,
    role: "brain",
    provider: "vendor-a",
    model_id: "m",
    input_tokens: 500,
    estimate_usd: 0.0015,
    reserved_usd: 0.4,
    channel: "chat",
    session_id: "s1",
    peer: null,
    ...fields,
  };
}

const DAY = Date.UTC(2026, 4, 1, 21); // 2 May 2026 00:00 in Istanbul

Deno.test("Ledger.begin() holds a reservation against a hard cap until settle() replaces it", () => {
  using tmp = tempDir("pending_test_");
  using ledger = Ledger.open(`${tmp.path}/spend.sqlite3`);
  ledger.record(spend("brain", DAY + 1000, 0.3));
  const cap = { usd: 1, sinceMs: DAY };
  const first = pending();
  assert.deepEqual(ledger.begin(first, cap), { ok: true });
  // $0.30 spent + $0.40 held + $0.40 asked > $1: refused, and nothing written.
  const second = pending();
  assert.deepEqual(ledger.begin(second, cap), { ok: false, spentUsd: 0.3, reservedUsd: 0.4 });
  assert.equal(ledger.pending().length, 1);
  ledger.settle({ ...spend("brain", DAY + 2000, 0.05), call_id: first.call_id });
  assert.equal(ledger.pending().length, 0);
  assert.deepEqual(ledger.begin(second, cap), { ok: true }, "the real cost freed the headroom");
  ledger.release(second.call_id);
  assert.equal(ledger.pending().length, 0);
  // A second settle of the same call (another process settled it) writes nothing.
  ledger.settle({ ...spend("brain", DAY + 3000, 0.05), call_id: first.call_id });
  assert.deepEqual(ledger.spent("brain", DAY), {
    usd: 0.35,
    calls: 2,
    unpriced_calls: 0,
    estimated_calls: 0,
  });
});

Deno.test("Ledger.open() settles the pending calls of dead processes as estimated rows", () => {
  using tmp = tempDir("pending_test_");
  const file = `${tmp.path}/spend.sqlite3`;
  const ledger = Ledger.open(file);
  ledger.begin(pending({ pid: 999_999_1, call_id: "dead" }));
  ledger.begin(pending({ pid: 999_999_2, call_id: "alive", estimate_usd: null }));
  ledger.close();
  using reopened = Ledger.open(file, { alive: (pid) => pid === 999_999_2 });
  assert.deepEqual(reopened.pending().map((p) => p.call_id), ["alive"]);
  const [row] = reopened.breakdown("session", { sinceMs: 0 });
  assert.equal(row?.calls, 1);
  assert.equal(row?.estimated_calls, 1);
  assert.equal(row?.input_tokens, 500);
  assert.equal(row?.usd, 0.0015);
  // A process whose liveness cannot be told keeps its call pending.
  assert.equal(reopened.settleStale(() => undefined), 0);
});

Deno.test("Ledger.openExisting() is read-only: reports work, a write says why", () => {
  using tmp = tempDir("pending_test_");
  const file = `${tmp.path}/spend.sqlite3`;
  Ledger.open(file).record(spend("brain", DAY + 1000, 0.3));
  using reader = Ledger.openExisting(file)!;
  assert.equal(reader.readOnly, true);
  assert.equal(reader.spent("brain", DAY).usd, 0.3);
  assert.throws(
    () => reader.record(spend("brain", DAY + 2000, 0.1)),
    (e) => e instanceof LedgerError && e.detail === "it was opened read-only",
  );
});

Deno.test("a version-2 ledger gains the estimated columns and the pending table, rows kept", () => {
  using tmp = tempDir("pending_test_");
  const file = `${tmp.path}/spend.sqlite3`;
  const db = new DatabaseSync(file);
  db.exec(`
    CREATE TABLE calls (id INTEGER PRIMARY KEY, ts INTEGER NOT NULL, role TEXT NOT NULL,
      provider TEXT NOT NULL, model_id TEXT NOT NULL, input_tokens INTEGER NOT NULL,
      output_tokens INTEGER NOT NULL, cache_read_tokens INTEGER NOT NULL,
      cache_write_tokens INTEGER NOT NULL, usd REAL, channel TEXT NOT NULL, session_id TEXT,
      peer TEXT);
    CREATE TABLE spend_day (role TEXT NOT NULL, day INTEGER NOT NULL, usd REAL NOT NULL,
      calls INTEGER NOT NULL, unpriced_calls INTEGER NOT NULL, input_tokens INTEGER NOT NULL
      DEFAULT 0, output_tokens INTEGER NOT NULL DEFAULT 0, cache_read_tokens INTEGER NOT NULL
      DEFAULT 0, cache_write_tokens INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (role, day))
      WITHOUT ROWID;
    CREATE TABLE budget_warnings (role TEXT NOT NULL, since INTEGER NOT NULL,
      at INTEGER NOT NULL, PRIMARY KEY (role, since)) WITHOUT ROWID;
    INSERT INTO calls VALUES (1, ${DAY + 1}, 'brain', 'vendor-a', 'm', 1, 1, 0, 0, 0.5, 'chat',
      NULL, NULL);
    INSERT INTO spend_day VALUES ('brain', ${DAY}, 0.5, 1, 0, 1, 1, 0, 0);
    PRAGMA user_version = 2;`);
  db.close();
  // A reader of the old ledger (a read-only home) still reports it.
  using old = Ledger.openExisting(file)!;
  assert.equal(old.spent("brain", DAY).estimated_calls, 0);
  assert.equal(old.pending().length, 0);
  using ledger = Ledger.open(file);
  ledger.record({ ...spend("brain", DAY + 2, 0.25), estimated: true });
  assert.deepEqual(ledger.spent("brain", DAY), {
    usd: 0.75,
    calls: 2,
    unpriced_calls: 0,
    estimated_calls: 1,
  });
});

Deno.test("LedgerError names the ledger once and says permission denied", () => {
  const file = "/home/me/.agent/data/spend.sqlite3";
  const denied = new LedgerError(
    "read",
    file,
    new Deno.errors.PermissionDenied(`Permission denied (os error 13): stat '${file}'`),
  );
  assert.equal(denied.message, `Cannot read the spend ledger ${file}: permission denied`);
  const readOnly = new LedgerError(
    "write",
    file,
    new Error("attempt to write a readonly database"),
  );
  assert.equal(readOnly.detail, "permission denied");
  const other = new LedgerError("open", file, new Error(`No such device: open '${file}'`));
  assert.equal(other.message.split(file).length - 1, 1, other.message);
});

Deno.test("Ledger.begin() holds a session's ceiling: its spend and its calls in flight", () => {
  using tmp = tempDir("pending_test_");
  using ledger = Ledger.open(`${tmp.path}/spend.sqlite3`);
  const run = { sessionId: "job-news-20260502-090000-abcd", usd: 0.5, sinceMs: DAY };
  // Another session's spend does not count against this one's ceiling.
  ledger.record({ ...spend("fast", DAY + 500, 0.45), session_id: "other" });
  ledger.record({ ...spend("fast", DAY + 1000, 0.1), session_id: run.sessionId });
  const first = pending({ role: "fast", session_id: run.sessionId, reserved_usd: 0.3 });
  assert.deepEqual(ledger.begin(first, undefined, run), { ok: true });
  // $0.10 spent + $0.30 held + $0.30 asked > $0.50: refused as the ceiling's, nothing written.
  const second = pending({ role: "fast", session_id: run.sessionId, reserved_usd: 0.3 });
  assert.deepEqual(ledger.begin(second, undefined, run), {
    ok: false,
    ceiling: true,
    spentUsd: 0.1,
    reservedUsd: 0.3,
  });
  assert.deepEqual(ledger.sessionSpend(run.sessionId, DAY), { spentUsd: 0.1, reservedUsd: 0.3 });
  ledger.release(first.call_id);
  assert.deepEqual(ledger.begin(second, undefined, run), { ok: true });
});
