/**
 * A hard cap holds under concurrency: 6 processes × 50 concurrent calls of a priced
 * fake role ($0.018 a call) against a $1 daily hard cap never end above it (the
 * reservation is checked and written in one `BEGIN IMMEDIATE` transaction), and the
 * headroom is used (the calls stop within one reservation of the cap).
 */
import assert from "node:assert/strict";
import { Ledger } from "@agent/hub/money";
import { tempDir } from "../_temp_dir.ts";
import { untilReady } from "./_ready.ts";

const CALLER = new URL("./_hard_cap_caller.ts", import.meta.url).pathname;
const PROCESSES = 6;
const CAP = 1;
const CALL_USD = 0.018;

Deno.test("hard cap: 6 processes × 50 concurrent calls never end above the cap", async () => {
  await using tmp = await tempDir("hard_cap_");
  const file = `${tmp.path}/spend.sqlite3`;
  Ledger.open(file).close();
  const children = Array.from({ length: PROCESSES }, () =>
    new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "--allow-read",
        "--allow-write",
        "--allow-env",
        "--allow-run",
        "--allow-sys=hostname",
        CALLER,
        file,
        `${tmp.path}/go`,
      ],
      stdout: "piped",
      stderr: "piped",
    }).spawn());
  await untilReady(tmp.path, PROCESSES);
  await Deno.writeTextFile(`${tmp.path}/go`, "");
  const outputs = await Promise.all(children.map((c) => c.output()));
  let answered = 0;
  let refused = 0;
  for (const o of outputs) {
    assert.equal(o.code, 0, new TextDecoder().decode(o.stderr));
    const [a, r] = new TextDecoder().decode(o.stdout).trim().split(" ").map(Number);
    answered += a!;
    refused += r!;
  }
  using ledger = Ledger.open(file);
  const spent = ledger.spent("brain", 0);
  console.log(
    `hard cap: ${PROCESSES} processes × 50 calls, ${answered} answered, ${refused} refused, spent $${
      spent.usd.toFixed(4)
    } of $${CAP.toFixed(2)}, ${ledger.pending().length} pending`,
  );
  assert.equal(answered + refused, PROCESSES * 50);
  assert.equal(spent.calls, answered);
  assert.ok(spent.usd <= CAP + 1e-9, `spent $${spent.usd} is above the cap`);
  assert.ok(spent.usd > CAP - 2 * CALL_USD, "the headroom was used");
  assert.equal(ledger.pending().length, 0, "every reservation was replaced by its cost");
});
