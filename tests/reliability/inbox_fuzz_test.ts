/**
 * Inbox fuzz on workerd (issue 27 item 7): 1,000 seeded mutations of valid envelopes
 * with genuine envelopes mixed in. Nothing answers 5xx but the protocol's own, nothing
 * is accepted that must be refused, no genuine envelope is lost, and the spine still
 * serves. `deno task bench inbox_fuzz` runs 10,000.
 */
import assert from "node:assert/strict";
import { fuzzLine, runInboxFuzz } from "./_inbox_fuzz.ts";

const COUNT = Number(Deno.env.get("FUZZ_COUNT") ?? "1000");

Deno.test({
  name: "inbox fuzz: 1,000 inputs, no 5xx, nothing wrongly accepted, nothing lost, still serving",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const f = await runInboxFuzz(COUNT);
    console.log(fuzzLine(f));
    assert.equal(f.inputs, COUNT);
    assert.ok(f.genuine >= Math.floor(COUNT / 25));
    assert.deepEqual(
      [f.serverErrors, f.wronglyAccepted, f.lost, f.stillServing],
      [0, 0, 0, true],
      f.failures.join("; "),
    );
  },
});
