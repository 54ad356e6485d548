import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { tempDir } from "../../tests/_temp_dir.ts";
import { Ledger } from "./ledger.ts";
import { SCHEMA_VERSION, schemaVersion } from "./schema.ts";
import { spend } from "./_testing.ts";

const DAY = Date.UTC(2026, 4, 1, 21); // 2 May 2026 00:00 in Istanbul

/**
 * A ledger as version `version` of this agent left it: today's schema with the later
 * steps taken back (each step from 4 on only adds a table or a column), one call in it.
 */
function oldLedger(file: string, version: 3 | 4 | 5): void {
  Ledger.open(file).close();
  const db = new DatabaseSync(file);
  if (version < 6) db.exec("ALTER TABLE calls DROP COLUMN recall_tokens");
  if (version < 5) db.exec("ALTER TABLE calls DROP COLUMN tool_tokens");
  if (version < 4) db.exec("DROP TABLE holds");
  db.exec(`INSERT INTO calls (ts, role, provider, model_id, input_tokens, output_tokens,
    cache_read_tokens, cache_write_tokens, usd, channel, purpose)
    VALUES (${DAY + 1}, 'brain', 'vendor-a', 'm', 10, 10, 0, 0, 0.5, 'chat', 'turn')`);
  db.exec(`INSERT INTO spend_day (role, day, usd, calls, unpriced_calls)
    VALUES ('brain', ${DAY}, 0.5, 1, 0)`);
  db.exec(`PRAGMA user_version = ${version}`);
  db.close();
}

function columns(file: string): string[] {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return (db.prepare("PRAGMA table_info(calls)").all() as { name: string }[]).map((c) => c.name);
  } finally {
    db.close();
  }
}

function version(file: string): number {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return schemaVersion(db);
  } finally {
    db.close();
  }
}

Deno.test("Ledger.open() migrates a version-3 ledger: the holds table (step 4), rows kept", () => {
  using tmp = tempDir("schema_test_");
  const file = `${tmp.path}/spend.sqlite3`;
  oldLedger(file, 3);
  using ledger = Ledger.open(file);
  assert.equal(version(file), SCHEMA_VERSION);
  const hold = { holdId: "digest@1", job: "digest", sessionId: "job-digest-1", ts: DAY + 5 };
  const cap = { usd: 1, sinceMs: DAY, runUsd: 0.4, minUsd: 0.1 };
  assert.deepEqual(ledger.hold(hold, cap), { ok: true, usd: 0.4 });
  ledger.releaseHold(hold.holdId);
  assert.equal(ledger.spent("brain", DAY).usd, 0.5);
});

Deno.test("Ledger.open() migrates a version-4 ledger: tool_tokens (step 5) and recall_tokens (step 6)", () => {
  using tmp = tempDir("schema_test_");
  const file = `${tmp.path}/spend.sqlite3`;
  oldLedger(file, 4);
  assert.ok(!columns(file).includes("tool_tokens"));
  using ledger = Ledger.open(file);
  assert.equal(version(file), SCHEMA_VERSION);
  assert.ok(columns(file).includes("tool_tokens") && columns(file).includes("recall_tokens"));
  ledger.record({ ...spend("brain", DAY + 2, 0.25), tool_tokens: 300, recall_tokens: 120 });
  const rows = ledger.rowsSince(DAY);
  // The old row reads as a call that sent neither; the new one keeps both.
  assert.deepEqual(rows.map((r) => [r.usd, r.tool_tokens, r.recall_tokens]), [
    [0.5, undefined, undefined],
    [0.25, 300, 120],
  ]);
  assert.equal(ledger.spent("brain", DAY).usd, 0.75);
});

Deno.test("Ledger.open() migrates a version-5 ledger (main's tool_tokens): recall_tokens (step 6)", () => {
  using tmp = tempDir("schema_test_");
  const file = `${tmp.path}/spend.sqlite3`;
  oldLedger(file, 5);
  assert.deepEqual(columns(file).filter((c) => c.endsWith("_tokens") && /tool|recall/.test(c)), [
    "tool_tokens",
  ]);
  using ledger = Ledger.open(file);
  assert.equal(version(file), SCHEMA_VERSION);
  ledger.record({ ...spend("brain", DAY + 2, 0.25), purpose: "memory", recall_tokens: 0 });
  ledger.record({ ...spend("brain", DAY + 3, 0.25), tool_tokens: 40, recall_tokens: 75 });
  assert.deepEqual(
    ledger.rowsSince(DAY).map((r) => [r.purpose, r.tool_tokens, r.recall_tokens]),
    [["turn", undefined, undefined], ["memory", undefined, undefined], ["turn", 40, 75]],
  );
  assert.deepEqual(
    ledger.breakdown("purpose", { sinceMs: DAY }).map((p) => [p.purpose, p.calls]),
    [["turn", 2], ["memory", 1]],
  );
});
