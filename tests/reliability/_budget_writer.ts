/**
 * One of several processes spending one budget: `deno run --allow-read --allow-write
 * _budget_writer.ts <ledger> <go file> <usd per call>`. Waits for the go file, then checks
 * the budget before every call and records a call of that price while it is not spent, as
 * the call chain does. Prints how many calls it recorded.
 *
 * @module
 */
import { budgetStatus, Ledger } from "@agent/hub/money";

const [file, go, price] = Deno.args;
const usd = Number(price);
if (file === undefined || go === undefined || !(usd > 0)) Deno.exit(2);
const role = {
  provider: "fake" as const,
  model_id: "m",
  params: {},
  budget: { usd: 1, period: "day" as const },
};
const ledger = Ledger.open(file);
// Ready: the test starts every process at once when all have said so.
Deno.writeTextFileSync(`${go}.ready-${Deno.pid}`, "");
for (;;) {
  try {
    Deno.statSync(go);
    break;
  } catch {
    await new Promise((r) => setTimeout(r, 2));
  }
}
let calls = 0;
for (;;) {
  const status = budgetStatus(ledger, "shared", role, Date.now());
  if (status?.exhausted) break;
  ledger.record({
    ts: Date.now(),
    role: "shared",
    provider: "fake",
    model_id: "m",
    input_tokens: 1,
    output_tokens: 1,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    usd,
    channel: "cli",
    session_id: `p${Deno.pid}`,
    peer: null,
  });
  calls++;
}
ledger.close();
console.log(calls);
