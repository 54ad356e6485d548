/**
 * The ledger under contention: six processes check and spend one $1 daily budget at
 * once, $0.01 a call. Figures: rows written against rows reported (0 lost), the daily
 * total against the rows (exact), and the overshoot (at most one call per process).
 */
import assert from "node:assert/strict";
import { Ledger } from "@agent/hub/money";
import { untilReady } from "./_ready.ts";

const WRITER = new URL("./_budget_writer.ts", import.meta.url).pathname;
const PROCESSES = 6;
/**
 * A call's price: the $1 budget holds 1,000 calls, a race long enough that a writer the
 * loaded machine wakes late still finds budget left (at $0.01 one writer once spent all
 * 100 calls before the others looked).
 */
const CALL_USD = 0.001;

Deno.test("ledger under contention: 6 processes, exact sums, no lost rows, overshoot within one call each", async () => {
  const dir = await Deno.makeTempDir({ prefix: "contention_" });
  const file = `${dir}/spend.sqlite3`;
  try {
    Ledger.open(file).close();
    const children = Array.from({ length: PROCESSES }, () =>
      new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "--quiet",
          "--allow-read",
          "--allow-write",
          "--allow-env",
          WRITER,
          file,
          `${dir}/go`,
          String(CALL_USD),
        ],
        stdout: "piped",
        stderr: "piped",
      }).spawn());
    await untilReady(dir, PROCESSES);
    await Deno.writeTextFile(`${dir}/go`, "");
    const outputs = await Promise.all(children.map((c) => c.output()));
    const reported = outputs.map((o) => {
      assert.equal(o.code, 0, new TextDecoder().decode(o.stderr));
      return Number(new TextDecoder().decode(o.stdout).trim());
    });
    using ledger = Ledger.open(file);
    const rows = ledger.count();
    const [day] = ledger.days({ sinceMs: Date.now() - 86_400_000, role: "shared" });
    const fromRows = ledger.breakdown("session", { sinceMs: 0, role: "shared" });
    const sumRows = fromRows.reduce((sum, r) => sum + r.usd, 0);
    const total = reported.reduce((a, b) => a + b, 0);
    const overshoot = Math.round((sumRows - 1) / CALL_USD);
    console.log(
      `ledger contention: ${PROCESSES} processes, ${rows} rows written, ${total} reported, daily total $${
        day?.usd.toFixed(2)
      } = rows $${sumRows.toFixed(2)}, overshoot ${Math.max(0, overshoot)} call(s)`,
    );
    assert.equal(rows, total, "no row lost");
    assert.equal(day?.calls, rows);
    assert.ok(Math.abs((day?.usd ?? 0) - sumRows) < 1e-9, "the daily total is the sum of its rows");
    // Several writers raced (on a loaded machine a late one may find the budget spent
    // before its first call, so not necessarily all six).
    assert.ok(fromRows.length >= 2, `${fromRows.length} process(es) wrote`);
    assert.ok(sumRows >= 1 - 1e-9, "the budget was reached");
    assert.ok(overshoot <= PROCESSES, `overshoot ${overshoot} calls`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
