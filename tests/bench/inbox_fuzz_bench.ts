/**
 * The inbox fuzzer at 10,000 inputs (issue 27 item 7): seeded mutations of valid
 * envelopes against the spine on workerd, genuine envelopes mixed in. Goal: 0 answers of
 * 5xx other than the protocol's own, 0 wrongly accepted, 0 lost. The suite runs 1,000
 * (`tests/reliability/inbox_fuzz_test.ts`).
 *
 * Run: `deno task bench inbox_fuzz`. Prints the figures on one line.
 *
 * @module
 */
import { fuzzLine, runInboxFuzz } from "../reliability/_inbox_fuzz.ts";

const f = await runInboxFuzz(Number(Deno.args[0] ?? 10_000));
console.log(fuzzLine(f));
if (f.serverErrors + f.wronglyAccepted + f.lost > 0 || !f.stillServing) {
  console.log(`failures: ${f.failures.join("; ")}`);
  Deno.exit(1);
}
