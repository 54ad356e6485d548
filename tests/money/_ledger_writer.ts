/**
 * A separate process writing one ledger: `deno run --allow-read --allow-write
 * _ledger_writer.ts <ledger> <role> <count> <barrier dir>`. It opens the ledger
 * (perhaps creating it alongside the others), says it is ready, waits for the go
 * signal, then records `<count>` calls, one transaction each.
 *
 * @module
 */
import { Ledger } from "@agent/hub/money";

const [file, role, countText, barrier] = Deno.args;
if (file === undefined || role === undefined || countText === undefined || barrier === undefined) {
  console.error("usage: _ledger_writer.ts <ledger> <role> <count> <barrier dir>");
  Deno.exit(2);
}
const ledger = Ledger.open(file);
Deno.writeTextFileSync(`${barrier}/ready-${role}`, "");
while (true) {
  try {
    Deno.statSync(`${barrier}/go`);
    break;
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
const base = Date.UTC(2026, 4, 14, 9);
for (let i = 0; i < Number(countText); i++) {
  ledger.record({
    ts: base + i * 1000,
    role,
    provider: "vendor-b",
    model_id: "model-x",
    input_tokens: i,
    output_tokens: 1,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    // Every 10th call is unpriced; the rest cost one cent.
    usd: i % 10 === 9 ? null : 0.01,
    channel: "cli",
    session_id: `${role}-${i}`,
    peer: null,
  });
}
ledger.close();
