import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { Ledger } from "../ledger/ledger.ts";
import type { CallRecord } from "../ledger/types.ts";
import { spendBy } from "./by.ts";
import { channelsOf, ensureSpendGroups, spendGroups } from "./rollup.ts";
import { periodBounds } from "../ledger/periods.ts";
import type { AgentConfig } from "../config/types.ts";

const CONFIG = {
  models: { prices: {}, roles: { brain: {}, fast: {} } },
} as unknown as AgentConfig;

function calls(now: number, n: number, offset = 0): CallRecord[] {
  const channels = ["chat", "messenger", "net", "tui"] as const;
  return Array.from({ length: n }, (_, k) => {
    const i = k + offset;
    const channel = channels[i % 4]!;
    return {
      // Around Istanbul midnights too: 20:59 and 21:00 UTC.
      ts: now - (i % 9) * 3_600_000 * 7 - (i % 2) * 60_000,
      role: i % 3 === 0 ? "fast" : "brain",
      provider: "fake" as const,
      model_id: "m",
      input_tokens: i,
      output_tokens: 2 * i,
      cache_read_tokens: i % 5,
      cache_write_tokens: 1,
      usd: i % 7 === 0 ? null : 0.001 * i,
      channel,
      session_id: i % 5 === 0 ? null : `${channel}-s${i % 6}`,
      peer: channel === "net" ? `peer${i % 3}.example` : null,
      estimated: i % 11 === 0,
    };
  });
}

Deno.test("spendGroups() gives the rows spendBy() gives from the calls, and the trigger keeps it current", async () => {
  const dir = await Deno.makeTempDir({ prefix: "agent-spend-rollup-" });
  try {
    const file = `${dir}/spend.sqlite3`;
    const now = Date.UTC(2026, 0, 20, 21, 0);
    const ledger = Ledger.open(file);
    ledger.recordMany(calls(now, 300));
    ensureSpendGroups(file); // filled from the calls
    ensureSpendGroups(file); // a second time: nothing changes
    ledger.recordMany(calls(now, 200, 300)); // kept by the trigger
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      for (const period of ["day", "week", "month"] as const) {
        const { sinceMs, resetMs } = periodBounds(period, now);
        for (const by of ["channel", "contact", "session"] as const) {
          const expected = spendBy(CONFIG, ledger, { by, period, nowMs: now }).rows;
          const got = spendGroups(db, by, sinceMs, resetMs);
          const norm = (rows: { key: string; usd: number }[]) =>
            rows.map((r) => ({ ...r, usd: Math.round(r.usd * 1e4) / 1e4 }))
              .sort((a, b) => a.key.localeCompare(b.key));
          assert.deepEqual(norm(got), norm(expected), `${period} by ${by}`);
          if (by === "session") {
            const channels = spendBy(CONFIG, ledger, { by: "channel", period, nowMs: now }).rows;
            assert.deepEqual(
              norm(channelsOf(got)),
              norm(channels),
              `${period} channels of sessions`,
            );
          }
        }
      }
    } finally {
      db.close();
      ledger.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ensureSpendGroups() does nothing without a ledger file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "agent-spend-rollup-" });
  try {
    ensureSpendGroups(`${dir}/none.sqlite3`);
    assert.deepEqual([...Deno.readDirSync(dir)], []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("spendGroups() by job sums each job's sessions in SQL, as agent spend --by job does", async () => {
  const dir = await Deno.makeTempDir({ prefix: "agent-spend-rollup-" });
  try {
    const file = `${dir}/spend.sqlite3`;
    const now = Date.UTC(2026, 0, 20, 12, 0);
    const ledger = Ledger.open(file);
    const sessions = [
      "job-morning-news-20260120-050000-ab12",
      "job-morning-news-20260119-050000-0f3c",
      "job-db-20260120-080000-9999",
      "job-not-a-run-id",
    ];
    const rows = [
      ...calls(now, 40),
      ...sessions.flatMap((session_id, i) =>
        Array.from({ length: 3 }, (_, k) => ({
          ...calls(now, 1)[0]!,
          ts: now - k * 60_000,
          channel: "job" as const,
          session_id,
          usd: 0.01 * (i + 1),
        }))
      ),
    ];
    ledger.recordMany(rows);
    ensureSpendGroups(file);
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      const { sinceMs, resetMs } = periodBounds("month", now);
      const got = spendGroups(db, "job", sinceMs, resetMs);
      assert.deepEqual(
        got.map((r) => [r.key, r.channel, r.calls, r.usd]),
        [
          ["-", "job", 3, 0.12],
          ["morning-news", "job", 6, 0.09],
          ["db", "job", 3, 0.09],
        ].sort((a, b) =>
          (b[3] as number) - (a[3] as number) || (b[2] as number) - (a[2] as number)
        ),
      );
      const cli = spendBy(CONFIG, ledger, { by: "job", period: "month", nowMs: now }).rows;
      assert.deepEqual(
        got.map((r) => [r.key, r.usd, r.calls]).sort(),
        cli.map((r) => [r.key, r.usd, r.calls]).sort(),
      );
    } finally {
      db.close();
      ledger.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
