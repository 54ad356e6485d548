import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { tempDir } from "../../tests/_temp_dir.ts";
import { type DayCap, Ledger, type PendingCall, type RunHold } from "./ledger.ts";
import { spend } from "./_testing.ts";

const DAY = Date.UTC(2026, 4, 1, 21); // 2 May 2026 00:00 in Istanbul

/** Run `n` of job `job`: its hold and its session. */
function run(job: string, n: number): RunHold {
  return {
    holdId: `${job}@${n}`,
    job,
    sessionId: `job-${job}-20260502-0900${n}0-ab${n}0`,
    ts: DAY,
  };
}

/** A settled call of `hold`'s run (or of any session) costing `usd`. */
function cost(sessionId: string, usd: number, ts = DAY + 60_000) {
  return { ...spend("fast", ts, usd), channel: "job" as const, session_id: sessionId };
}

/** J1's job: $4.10 a day, at most $3.20 a run, a run needs $3.10. */
const PROBE: DayCap = { usd: 4.1, sinceMs: DAY, runUsd: 3.2, minUsd: 3.1 };

Deno.test("Ledger.hold() lets one run hold the day; a second at once is refused in any process", () => {
  using tmp = tempDir("hold_test_");
  const file = `${tmp.path}/spend.sqlite3`;
  using a = Ledger.open(file);
  using b = Ledger.open(file);
  assert.deepEqual(a.hold(run("probe", 1), PROBE), { ok: true, usd: 3.2 });
  // $3.20 held leaves $0.90, less than a run: refused, and nothing written.
  assert.deepEqual(b.hold(run("probe", 2), PROBE), { ok: false, spentUsd: 0, heldUsd: 3.2 });
  // The running run's calls count inside its hold, not beside it.
  a.record(cost(run("probe", 1).sessionId, 2));
  assert.deepEqual(b.hold(run("probe", 2), PROBE), { ok: false, spentUsd: 0, heldUsd: 3.2 });
  // Released: the day counts the run's real $2.00, and $2.10 is still less than a run.
  a.releaseHold("probe@1");
  assert.deepEqual(b.hold(run("probe", 2), PROBE), { ok: false, spentUsd: 2, heldUsd: 0 });
  // Another job's day is its own; a job whose name starts the same is another job.
  assert.deepEqual(b.hold(run("probe-b", 1), PROBE), { ok: true, usd: 3.2 });
});

Deno.test("Ledger.hold() gives a run what the day has left when it is less than a run's cap", () => {
  using tmp = tempDir("hold_test_");
  using ledger = Ledger.open(`${tmp.path}/spend.sqlite3`);
  const cap: DayCap = { usd: 0.0065, sinceMs: DAY, runUsd: 0.005, minUsd: 0.0031 };
  // Yesterday's spend and other channels' do not count.
  ledger.record(cost(run("capped", 9).sessionId, 1, DAY - 1));
  ledger.record({ ...cost(run("capped", 8).sessionId, 1), channel: "chat" });
  ledger.record(cost(run("capped", 1).sessionId, 0.002));
  assert.deepEqual(ledger.hold(run("capped", 2), cap), { ok: true, usd: 0.0045 });
  ledger.record(cost(run("capped", 2).sessionId, 0.002));
  ledger.releaseHold("capped@2");
  const third = ledger.hold(run("capped", 3), cap);
  assert.equal(third.ok, false);
  assert.ok(!third.ok && Math.abs(third.spentUsd - 0.004) < 1e-12);
  // Without a run cap a run holds all that is left.
  assert.deepEqual(ledger.hold(run("open", 1), { usd: 1, sinceMs: DAY, minUsd: 0.1 }), {
    ok: true,
    usd: 1,
  });
});

Deno.test("Ledger.hold() expires a dead process's hold and counts its calls in flight", () => {
  using tmp = tempDir("hold_test_");
  const file = `${tmp.path}/spend.sqlite3`;
  using ledger = Ledger.open(file);
  const dead = 999_999_7;
  // A run of a process that died: its hold and one call in flight under its id.
  {
    using db = Ledger.open(file);
    assert.equal(db.hold(run("probe", 1), PROBE).ok, true);
  }
  const call: PendingCall = {
    call_id: "in-flight",
    ts: DAY + 1000,
    pid: dead,
    role: "fast",
    provider: "vendor-a",
    model_id: "m",
    input_tokens: 100,
    estimate_usd: 0.5,
    reserved_usd: 3,
    channel: "job",
    session_id: run("probe", 1).sessionId,
    peer: null,
  };
  assert.deepEqual(ledger.begin(call), { ok: true });
  // The hold is this process's in the table: rewrite it as the dead process's.
  moveHold(file, "probe@1", dead);
  const alive = (pid: number) => pid !== dead;
  // Expired: the call becomes its estimated row ($0.50), and $3.60 is left.
  assert.deepEqual(ledger.hold(run("probe", 2), PROBE, alive), { ok: true, usd: 3.2 });
  assert.deepEqual(ledger.pending(), []);
  assert.equal(ledger.rowsSince(DAY).find((r) => r.call_id === "in-flight")?.estimated, true);
});

Deno.test("Ledger.open() drops the holds of dead processes with their calls in flight", () => {
  using tmp = tempDir("hold_test_");
  const file = `${tmp.path}/spend.sqlite3`;
  {
    using ledger = Ledger.open(file);
    assert.equal(ledger.hold(run("probe", 1), PROBE).ok, true);
    assert.equal(ledger.hold(run("other", 1), PROBE).ok, true);
  }
  moveHold(file, "probe@1", 999_999_8);
  moveHold(file, "other@1", 999_999_9);
  using reopened = Ledger.open(file, { alive: (pid) => pid === 999_999_9 });
  // probe's hold is gone with its process; other's process still runs.
  assert.equal(reopened.hold(run("probe", 2), PROBE).ok, true);
  assert.equal(reopened.hold(run("other", 2), PROBE).ok, false);
});

Deno.test("Ledger.hold() expires a hold this process id left from a former process", () => {
  using tmp = tempDir("hold_test_");
  const file = `${tmp.path}/spend.sqlite3`;
  using ledger = Ledger.open(file);
  assert.equal(ledger.hold(run("probe", 1), PROBE).ok, true);
  // Still this process's run: it holds.
  assert.equal(ledger.hold(run("probe", 2), PROBE).ok, false);
  // A container restarted with the same id finds a hold no run of it made.
  copyHold(file, "probe@1", "probe@0");
  ledger.releaseHold("probe@1");
  assert.equal(ledger.hold(run("probe", 2), PROBE).ok, true);
});

/** Gives hold `id` to process `pid`, as if that process had written it. */
function moveHold(file: string, id: string, pid: number): void {
  sqlExec(file, "UPDATE holds SET pid = ? WHERE hold_id = ?", pid, id);
}

/** Writes a copy of hold `id` under `copy` (same process id, no run of this process). */
function copyHold(file: string, id: string, copy: string): void {
  sqlExec(
    file,
    `INSERT INTO holds (hold_id, job, session_id, pid, ts, usd)
     SELECT ?, job, session_id || '-0', pid, ts, usd FROM holds WHERE hold_id = ?`,
    copy,
    id,
  );
}

function sqlExec(file: string, sql: string, ...args: (string | number)[]): void {
  const db = new DatabaseSync(file);
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    db.prepare(sql).run(...args);
  } finally {
    db.close();
  }
}
