import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { Ledger } from "@agent/hub/money";
import { tempDir } from "../_temp_dir.ts";
import { until } from "../_poll.ts";

const WRITER = new URL("./_ledger_writer.ts", import.meta.url).pathname;
const PER_PROCESS = 400;
const ROLES = ["alpha", "beta", "gamma"];

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("Ledger loses no row when three processes create and write it at once", async () => {
  using tmp = tempDir("ledger_processes_");
  const dir = tmp.path;
  const file = `${dir}/data/spend.sqlite3`;
  const children = ROLES.map((role) =>
    new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "--no-prompt",
        "--allow-read",
        "--allow-write",
        WRITER,
        file,
        role,
        String(PER_PROCESS),
        dir,
      ],
      stdout: "piped",
      stderr: "piped",
    }).spawn()
  );
  try {
    const ready = ROLES.map((r) => `${dir}/ready-${r}`);
    await until(
      () => `the writers to start (missing: ${ready.filter((p) => !exists(p)).join(", ")})`,
      () => ready.every(exists),
      { timeoutMs: 60_000 },
    );
  } finally {
    // Release the writers together so their transactions interleave.
    Deno.writeTextFileSync(`${dir}/go`, "");
  }
  const results = await Promise.all(children.map((c) => c.output()));
  for (const [i, r] of results.entries()) {
    assert.equal(r.code, 0, `writer ${ROLES[i]} failed: ${new TextDecoder().decode(r.stderr)}`);
  }

  using ledger = Ledger.open(file);
  assert.equal(ledger.count(), PER_PROCESS * ROLES.length);
  for (const role of ROLES) {
    const totals = ledger.spent(role, Date.UTC(2026, 4, 1));
    assert.equal(totals.calls, PER_PROCESS);
    assert.equal(totals.unpriced_calls, PER_PROCESS / 10);
    assert.ok(
      Math.abs(totals.usd - (PER_PROCESS * 9 / 10) * 0.01) < 1e-9,
      `${role}: ${totals.usd}`,
    );
  }
  // The writes really interleaved: some neighbouring row ids belong to different processes.
  const db = new DatabaseSync(file);
  const switches = db.prepare(
    "SELECT COUNT(*) AS n FROM calls a JOIN calls b ON b.id = a.id + 1 WHERE a.role <> b.role",
  ).get() as { n: number };
  db.close();
  assert.ok(switches.n >= 2, `expected interleaved writers, saw ${switches.n} switches`);
});
